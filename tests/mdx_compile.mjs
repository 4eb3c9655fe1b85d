// Compiles MDX read from stdin with the real MDX compiler (@mdx-js/mdx v3, installed into .tools/ by
// scripts/setup-ci-tools) and prints the page as HTML, serialised from the compiler's own HTML syntax
// tree: compiling alone would not show that `{props.x}` became an expression instead of text.
// Nothing is evaluated. Any error or warning from the compiler: its messages on stderr, exit status 1.
//
//   node tests/mdx_compile.mjs < page.mdx
import { readFileSync } from 'node:fs'

const { compile } = await import(new URL('../.tools/node_modules/@mdx-js/mdx/index.js', import.meta.url))

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const attribute = (name, value) => ` ${name}="${escape(value).replace(/"/g, '&quot;')}"`

function properties (props = {}) {
  return Object.entries(props).map(([name, value]) => {
    if (value === false || value === null || value === undefined) return ''
    if (name === 'className') name = 'class'
    return attribute(name, Array.isArray(value) ? value.join(' ') : value === true ? '' : value)
  }).join('')
}

function jsxAttributes (attributes = []) {
  return attributes.map((a) => a.type !== 'mdxJsxAttribute'
    ? ` {${a.value}}`
    : a.value === null || a.value === undefined ? ` ${a.name}`
      : typeof a.value === 'string' ? attribute(a.name, a.value) : ` ${a.name}={${a.value.value}}`).join('')
}

// JSX and expressions stay visible as what they are, so a test can tell them from text.
function html (node) {
  const children = () => (node.children || []).map(html).join('')
  switch (node.type) {
    case 'root': return children()
    case 'text': return escape(node.value)
    case 'element': return `<${node.tagName}${properties(node.properties)}>${children()}</${node.tagName}>`
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement': return `<${node.name || ''}${jsxAttributes(node.attributes)}>${children()}</${node.name || ''}>`
    case 'mdxFlowExpression':
    case 'mdxTextExpression': return `<mdx-expression>${escape(node.value)}</mdx-expression>`
    case 'mdxjsEsm': return `<mdx-esm>${escape(node.value)}</mdx-esm>`
    default: return ''
  }
}

let page = ''
const capture = () => (tree) => { page = html(tree) }
try {
  const file = await compile(readFileSync(0, 'utf8'), { rehypePlugins: [capture] })
  if (file.messages.length > 0) {
    for (const message of file.messages) console.error(String(message))
    process.exit(1)
  }
  process.stdout.write(page)
} catch (error) {
  console.error(String(error))
  process.exit(1)
}
