// An agent outside the app whose deploy tool waits for a reviewer in the web inbox.
//
//   TOOLNEXUS_URL=http://localhost:3000 TOOLNEXUS_TOKEN=tnx_… npx tsx examples/inbox/deploy-approval.mts
//
// Make the token at /settings/tokens (both scopes), then approve "Deploy v1.4 to production?"
// as a reviewer in the inbox (rita@example.com in the demo). Stop the script or the app while it
// waits and start it again: it finds its request again instead of asking twice, and picks up
// the answer. The model is stubbed, so no API key is needed.
import { createInboxWaitFor } from "toolnexus";
import { deployTool, runDeploy, version } from "../shared/deploy-agent.mts";

const baseUrl = process.env.TOOLNEXUS_URL ?? "http://localhost:3000";
const token = process.env.TOOLNEXUS_TOKEN;
if (!token) {
  console.error("Set TOOLNEXUS_TOKEN to a token from /settings/tokens.");
  process.exit(2);
}

await runDeploy({
  tool: deployTool({
    description: "Deploy a version to production once a reviewer approved it",
    deployed: (deployedVersion, answer) => `deployed ${deployedVersion} (note: ${answer.data?.note ?? "none"})`,
    data: { schema: { type: "object", properties: { note: { type: "string", title: "Note" } } } },
  }),
  waitFor: createInboxWaitFor({
    baseUrl,
    token,
    // One approval per deploy of a version: a restarted run of this job finds its request again.
    scope: `deploy ${version}`,
    onRetry: ({ attempt, delayMs }) => console.log(`inbox unreachable (attempt ${attempt}); retrying in ${delayMs} ms`),
  }),
  starting: `waiting for a reviewer at ${baseUrl}/inbox`,
});
