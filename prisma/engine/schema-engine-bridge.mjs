#!/usr/bin/env node
// Stand-in for Prisma's native `schema-engine` binary, which cannot be downloaded here.
// The Prisma CLI spawns it (PRISMA_SCHEMA_ENGINE_BINARY, set in prisma.config.ts) and talks
// newline-delimited JSON-RPC 2.0 over stdio; every call is served by the WebAssembly build of
// the same engine (@prisma/schema-engine-wasm) running on Prisma driver adapters.
import { createInterface } from "node:readline";
import { redactUrl } from "./create-adapter-factory.mjs";
import { canConnect, createDatabase, dropDatabase } from "./database-admin.mjs";
import { EngineSession } from "./engine-session.mjs";
import { loadSchemaEngine, takePanicMessage } from "./load-schema-engine.mjs";

function parseArgs(argv) {
  const parsed = { datamodels: [], datasource: null, cli: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--datamodels") parsed.datamodels.push(argv[++i]);
    else if (arg === "--datasource") parsed.datasource = JSON.parse(argv[++i]);
    else if (arg === "--enabled-preview-features" || arg === "--extension-types") i++;
    else if (arg === "--version" || arg === "-V") parsed.version = true;
    else if (arg === "cli") parsed.cli = argv[++i];
  }
  return parsed;
}

// The CLI reads the engine's stderr as JSON log lines and takes ERROR entries from this target
// as the user-facing outcome of a `cli` subcommand.
function logLine(level, fields) {
  const entry = { timestamp: new Date().toISOString(), level, fields, target: "schema_engine::logger" };
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

function logError(code, message) {
  logLine("ERROR", code ? { error_code: code, message } : { message });
}

async function runCliCommand(command, datasource) {
  if (!datasource?.url) throw new Error("--datasource with a url is required");
  if (command === "can-connect-to-database") await canConnect(datasource.url);
  else if (command === "create-database") await createDatabase(datasource.url);
  else if (command === "drop-database") await dropDatabase(datasource.url);
  else throw new Error(`Unknown cli command: ${command}`);
}

// The engine appends a span trace to its messages; users only need the first part.
function cleanMessage(message) {
  return String(message ?? "Unknown error")
    .split(/\n\s+0: /)[0]
    .trimEnd();
}

function toRpcError(error) {
  const panic = takePanicMessage();
  if (panic || error instanceof WebAssembly.RuntimeError) {
    return {
      code: 4466,
      message: "An error happened. Check the data field for details.",
      data: { is_panic: true, message: panic ?? String(error?.message), backtrace: error?.stack },
    };
  }
  if (typeof error?.rpcCode === "number") return { code: error.rpcCode, message: error.message };
  const data = { is_panic: false, message: cleanMessage(error?.message), meta: error?.meta ?? {} };
  if (typeof error?.code === "string" && /^P\d{4}$/.test(error.code)) data.error_code = error.code;
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

async function serveJsonRpc(session) {
  const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      return;
    }
    // Responses to our own requests (none are sent) and notifications need no reply.
    if (request.method === undefined || request.id === undefined) return;
    // The engine methods take the engine exclusively, so calls are served strictly in order.
    queue = queue.then(async () => {
      try {
        let result = await session.call(request.method, request.params);
        // The native engine hands diff output to the CLI through a `print` request rather than
        // in the result (its `stdout` is always null there), and the CLI only prints that way.
        if (request.method === "diff" && typeof result?.stdout === "string") {
          if (result.stdout.length > 0) {
            send({
              jsonrpc: "2.0",
              id: `print-${request.id}`,
              method: "print",
              params: { content: result.stdout.replace(/\n$/, "") },
            });
          }
          result = { ...result, stdout: null };
        }
        send({ jsonrpc: "2.0", id: request.id, result: result ?? {} });
      } catch (error) {
        send({ jsonrpc: "2.0", id: request.id, error: toRpcError(error) });
      }
    });
  });
  await new Promise((resolve) => lines.once("close", resolve));
  await queue;
  await session.close();
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.version) {
    const { version } = await loadSchemaEngine();
    process.stdout.write(`schema-engine-cli ${version()}\n`);
    return 0;
  }
  if (args.cli) {
    // The CLI skips the first stderr line of a subcommand (the native engine's start-up banner).
    logLine("INFO", { message: `Starting schema engine bridge (${args.cli})` });
    try {
      await runCliCommand(args.cli, args.datasource);
      return 0;
    } catch (error) {
      logError(error?.code, error?.message ?? String(error));
      return 1;
    }
  }
  if (!args.datasource?.url) {
    logError(
      null,
      "The schema engine bridge needs --datasource with a url (set datasource.url in prisma.config.ts)",
    );
    return 1;
  }
  const session = new EngineSession({
    datasource: args.datasource,
    datamodelPaths: args.datamodels,
    log: (line) => process.stderr.write(line.endsWith("\n") ? line : `${line}\n`),
  });
  try {
    await serveJsonRpc(session);
    return 0;
  } catch (error) {
    logError(null, `${error?.message ?? error} (datasource ${redactUrl(args.datasource.url)})`);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    logError(null, String(error?.stack ?? error));
    process.exit(101);
  },
);
