// Loads @prisma/schema-engine-wasm without Node's experimental ESM-WebAssembly integration,
// which the package's entry point relies on.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let lastPanicMessage = null;

/** The Rust panic message of the most recent WebAssembly panic, if any (cleared on read). */
export function takePanicMessage() {
  const message = lastPanicMessage;
  lastPanicMessage = null;
  return message;
}

let loaded = null;

/** @returns {Promise<typeof import("@prisma/schema-engine-wasm")>} */
export function loadSchemaEngine() {
  if (!loaded) loaded = instantiate();
  return loaded;
}

async function instantiate() {
  // The engine reports panics through this global before trapping.
  globalThis.PRISMA_WASM_PANIC_REGISTRY = {
    set_message(message) {
      lastPanicMessage = message;
    },
  };
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = await import(gluePath);
  const bytes = await readFile(gluePath.replace(/\.js$/, ".wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue;
}
