// Agent A: its deploy tool forwards the approval to agent B over A2A, and B is this app, where a
// reviewer answers in the inbox.
//
//   TOOLNEXUS_URL=http://localhost:3000 TOOLNEXUS_A2A_TOKEN=tnx_… npx tsx examples/a2a/deploy-via-a2a.mts
//
// The token is a personal API token with the `a2a` scope (/settings/tokens). The model of agent A
// is stubbed, so no API key is needed. See examples/a2a/README.md.
import { createA2AWaitFor } from "toolnexus";
import { deployTool, runDeploy, version } from "../shared/deploy-agent.mts";

const baseUrl = process.env.TOOLNEXUS_URL ?? "http://localhost:3000";
if (!process.env.TOOLNEXUS_A2A_TOKEN) {
  console.error("Set TOOLNEXUS_A2A_TOKEN to a token with the a2a scope from /settings/tokens.");
  process.exit(2);
}

await runDeploy({
  tool: deployTool({
    description: "Deploy a version to production once agent B approved it",
    // B's finished task is the answer: its data part, or its text as `{ text }`.
    deployed: (deployedVersion, answer) => `deployed ${deployedVersion} (B said: ${JSON.stringify(answer.data ?? {})})`,
  }),
  waitFor: createA2AWaitFor({
    agentCardUrl: `${baseUrl}/.well-known/agent-card.json`,
    // Read from the environment at every call; never printed.
    headers: { Authorization: "Bearer ${TOOLNEXUS_A2A_TOKEN}" },
    // B shows input-required while its reviewer decides: keep waiting for B's inbox.
    onInputRequired: "wait",
    // One task per deploy of a version: a restarted run of this job finds its task again.
    scope: `deploy ${version}`,
    pollEveryMs: 2000,
  }),
  starting: `asking agent B at ${baseUrl}; approve in ${baseUrl}/inbox`,
});
