// The port of a spawned `serve` (from source or the compiled binary), read from its log line
// "… listening on port N …". Used by the tests and scripts that start the real server.

export async function listeningPort(stdout: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stdout.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  try {
    for (;;) {
      const port = Number(/listening on port (\d+)/.exec(seen)?.[1] ?? 0)
      if (port) return port
      const { value, done } = await reader.read()
      if (done) throw new Error(`server exited: ${seen}`)
      seen += decoder.decode(value, { stream: true })
    }
  } finally {
    reader.releaseLock()
  }
}
