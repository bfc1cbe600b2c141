import { startBenchStubServer } from "./stub-llm-server";

// Runs the stub in its own process so its CPU never competes with the contenders' event loop.
const server = await startBenchStubServer(Number(process.env.BENCH_STUB_PORT ?? 0));
process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl })}\n`);

const stop = () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The parent holds our stdin open; when it goes away, so do we, even if it died without signalling.
process.stdin.on("end", stop);
process.stdin.resume();
