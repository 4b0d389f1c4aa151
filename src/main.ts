// Entry point of both the server and the admin command line (and of dist/quest-tracker).
import { run } from './cli'
import { batchedLines } from './logger'

async function readPassword(prompt: string): Promise<string> {
  output.flush() // what the command said so far comes before the prompt
  if (!process.stdin.isTTY) {
    // Non-interactive: the first line of standard input.
    const text = await Bun.stdin.text()
    return text.split(/\r?\n/, 1)[0] ?? ''
  }
  process.stderr.write(prompt)
  process.stdin.setRawMode(true)
  process.stdin.resume()
  let password = ''
  try {
    for await (const chunk of process.stdin) {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return password
        if (char === '\u0003') process.exit(130) // Ctrl-C
        if (char === '\u007f' || char === '\b') password = password.slice(0, -1)
        else password += char
      }
    }
    return password
  } finally {
    process.stdin.setRawMode(false)
    process.stdin.pause()
    process.stderr.write('\n')
  }
}

const output = batchedLines({ out: (text) => console.log(text), err: (text) => console.error(text) })
// Whatever ends the process, what was logged is written.
process.on('exit', output.flush)
const code = await run(Bun.argv.slice(2), {
  env: process.env,
  out: output.out,
  err: output.err,
  readPassword,
  untilStopped: (stop) =>
    new Promise<void>((done) => {
      const shutdown = (signal: string) => {
        void stop(signal).then(done)
      }
      process.once('SIGINT', shutdown)
      process.once('SIGTERM', shutdown)
    }),
})
process.exit(code)
