// How the node checks (mermaid_parse.mjs, mdx_compile.mjs) read their input and answer.
//   once (default): the text on stdin; the answer on stdout (a string as it is, anything else as
//   JSON); a failure's description on stderr, exit status 1.
//   --serve: one process for many texts (loading the libraries is most of a check's time): each
//   line read is a text as a JSON string, each line written {"result": ...} or {"error": "..."}.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

export async function answer (work, describe) {
  if (process.argv.includes('--serve')) {
    for await (const line of createInterface({ input: process.stdin })) {
      let reply
      try {
        reply = { result: await work(JSON.parse(line)) }
      } catch (error) {
        reply = { error: describe(error) }
      }
      process.stdout.write(JSON.stringify(reply) + '\n')
    }
    return
  }
  try {
    const result = await work(readFileSync(0, 'utf8'))
    process.stdout.write(typeof result === 'string' ? result : JSON.stringify(result))
  } catch (error) {
    console.error(describe(error))
    process.exit(1)
  }
}
