import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

/** Bundles a browser entry (and the client code it imports) into one script, once, when first asked for. */
export function browserBundle(entry: string): () => Promise<Buffer> {
  let bundled: Promise<Buffer> | undefined
  return () =>
    (bundled ??= build({
      entryPoints: [fileURLToPath(new URL(`./browser/${entry}`, import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      write: false,
      logLevel: 'silent',
    }).then((result) => Buffer.from(result.outputFiles[0]!.contents)))
}
