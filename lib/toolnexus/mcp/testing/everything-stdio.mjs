// The reference server over stdio, ending with its stdin: the restart tests SIGKILL the host,
// and the reference server on its own would outlive it (its timers keep it running).
import path from "node:path";

const server = path.resolve(
  import.meta.dirname,
  "../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
process.argv = [process.argv[0], server, "stdio"];
process.stdin.on("end", () => process.exit(0));
await import(server);
