// Parses a Mermaid diagram read from stdin with Mermaid's own parser (mermaid 11, installed into
// .tools/ by scripts/setup-ci-tools) and prints what the parser understood, as JSON:
//   flowchart: {type, direction, nodes: [{id, label, shape}], edges: [{from, to, label, stroke}]}
//   sequence:  {type, participants: [{id, label}], messages: [{from, to, text, kind}]}
// with Mermaid's entity codes (#quot;, #35;, ...) decoded, so a test can compare labels with the
// text they came from. Mermaid needs a DOM even to parse (its sanitiser is DOMPurify): jsdom gives
// it one; nothing is rendered. A parse error: the parser's message on stderr, exit status 1.
//
//   node tests/mermaid_parse.mjs < diagram.mmd
//   node tests/mermaid_parse.mjs --serve     (many diagrams, one a line: node_check.mjs)
import { answer } from './node_check.mjs'

const tools = new URL('../.tools/node_modules/', import.meta.url)
const { JSDOM } = await import(new URL('jsdom/lib/api.js', tools))
const { window } = new JSDOM('<!doctype html><html><body></body></html>')
globalThis.window = window
globalThis.document = window.document
const mermaid = (await import(new URL('mermaid/dist/mermaid.core.mjs', tools))).default

// Mermaid swaps "#name;" and "#123;" for these markers before parsing and back when rendering.
function decode (text) {
  return String(text ?? '')
    .replace(/ﬂ°°(\d+)¶ß/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/ﬂ°(\w+)¶ß/g, (_, name) => {
      const area = window.document.createElement('textarea')
      area.innerHTML = `&${name};`
      return area.value
    })
}

const KINDS = { 0: 'solid', 1: 'dashed', 2: 'note', 10: 'loop', 11: 'loop-end', 12: 'alt', 13: 'else', 14: 'end' }

// What the parser understood of one diagram; throws the parser's error on a syntax error.
async function understood (text) {
  await mermaid.parse(text) // throws on any syntax error
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(text)
  const db = diagram.db
  let out
  if (db.getVertices) {
    out = {
      type: 'flowchart',
      direction: db.getDirection?.(),
      nodes: [...db.getVertices().values()].map((v) => ({ id: v.id, label: decode(v.text), shape: v.type })),
      edges: db.getEdges().map((e) => ({ from: e.start, to: e.end, label: decode(e.text), stroke: e.stroke }))
    }
  } else if (db.getActors) {
    out = {
      type: 'sequence',
      participants: [...db.getActors().values()].map((a) => ({ id: a.name, label: decode(a.description) })),
      messages: db.getMessages().map((m) => ({
        from: m.from ?? null, to: m.to ?? null, text: decode(m.message), kind: KINDS[m.type] ?? m.type
      }))
    }
  } else {
    out = { type: diagram.type }
  }
  return out
}

await answer(understood, (error) => String(error?.message ?? error))
