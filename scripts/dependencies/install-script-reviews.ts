// Packages whose install scripts the project does not run, each with the reason it works without them.
// npm 11 runs a dependency's install script only when package.json's `allowScripts` approves it; each name
// here is recorded there as denied (false), so that npm reports it as reviewed. Approving one instead means
// `allowScripts: { "<name>": true }` and removing it from this list. test/architecture/install-scripts.test.ts
// keeps the two in step with the lockfile.
export const INSTALL_SCRIPTS_NOT_RUN: Record<string, string> = {
  bufferutil:
    'node-gyp-build only compiles when no prebuilt binary fits; the package ships prebuilds, and ws (under viem and the older uWebSockets.js package) uses it only when it loads, with a JavaScript path otherwise',
  'utf-8-validate':
    'node-gyp-build only compiles when no prebuilt binary fits; the package ships prebuilds, and ws (under viem and the older uWebSockets.js package) uses it only when it loads, with a JavaScript path otherwise',
  'msgpackr-extract':
    "compiles its native decoder only when no prebuilt package fits; the prebuilt @msgpackr-extract/* package is loaded at run time, and msgpackr (BullMQ's encoder) falls back to JavaScript without it",
  esbuild:
    "install.js only checks the platform binary package (@esbuild/<platform>) and may swap in the binary for a faster start; esbuild finds the platform package itself at run time. Build time only (the pages' scripts, tsx)",
  '@foundry-rs/anvil':
    'development chain only; the anvil binary comes from its optional platform package (@foundry-rs/anvil-<platform>), found at run time',
  '@scarf/scarf': 'sends install analytics; nothing at run time needs it',
  protobufjs: "checks the version of protobufjs' command-line tools; the library itself needs nothing from it (development tools only)",
  'vue-demi':
    "switches between Vue 2 and Vue 3 builds inside the reference renderer's package tree; only the renderer's prebuilt browser file is used, copied at build time",
}
