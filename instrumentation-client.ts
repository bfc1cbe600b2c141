// Runs in the browser before any of the app's code (Next's client instrumentation file).
//
// The pages' Content-Security-Policy gives scripts no way to turn strings into code (no
// 'unsafe-eval', ADR 0039). Zod, which the AI SDK's chat stream uses in the browser, would
// otherwise probe for `new Function` when its first object schema is built; the probe fails
// harmlessly but the browser still reports it as a policy violation. Schemas built after this
// line validate without generated code, as they would after a failed probe.
import { config } from "zod";

config({ jitless: true });
