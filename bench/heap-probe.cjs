// Preloaded into the bench's app server (NODE_OPTIONS=--require): on SIGUSR2 it runs a full
// garbage collection and writes process.memoryUsage() from before and after it to the file in
// BENCH_HEAP_PROBE_FILE, so the section can tell garbage not yet collected from live objects,
// and V8's heap from the rest of the resident memory. Plain CommonJS: it runs before Next.
const fs = require("node:fs");
const v8 = require("node:v8");
const vm = require("node:vm");

const file = process.env.BENCH_HEAP_PROBE_FILE;
if (file) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  process.on("SIGUSR2", () => {
    const before = process.memoryUsage();
    gc();
    gc();
    const after = process.memoryUsage();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, before, after }));
    fs.renameSync(`${file}.tmp`, file);
  });
}
