// Compiles MDX read from stdin with the real MDX compiler (@mdx-js/mdx v3, installed into .tools/ by
// scripts/setup-ci-tools) and prints the page as HTML, serialised from the compiler's own HTML syntax
// tree: compiling alone would not show that `{props.x}` became an expression instead of text.
// Nothing is evaluated. Any error or warning from the compiler: its messages on stderr, exit status 1.
//
//   node tests/mdx_compile.mjs < page.mdx
//   node tests/mdx_compile.mjs --serve     (many pages, one a line: node_check.mjs)
import { answer } from './node_check.mjs'

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

// The page as HTML; throws the compiler's messages when it has any.
async function compiled (text) {
  let page = ''
  const capture = () => (tree) => { page = html(tree) }
  const file = await compile(text, { rehypePlugins: [capture] })
  if (file.messages.length > 0) throw new Error(file.messages.map(String).join('\n'))
  return page
}

await answer(compiled, (error) => error instanceof Error && !('reason' in error) ? error.message : String(error))
