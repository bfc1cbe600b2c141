import { describe, expect, it } from "vitest";
import { tokenSnippets } from "./token-snippets";

describe("token snippets", () => {
  it("fill in the app's address and the token, whatever trailing slashes the address has", () => {
    const { curl, library } = tokenSnippets("https://inbox.example.com//", "tnx_abc");
    expect(curl).toContain("curl -X POST https://inbox.example.com/api/v1/requests");
    expect(curl).toContain('-H "Authorization: Bearer tnx_abc"');
    expect(JSON.parse(curl.split("-d '")[1]!.replace(/'$/, ""))).toEqual({
      kind: "approval",
      prompt: "Deploy v1.4 to production?",
    });
    expect(library).toContain('baseUrl: "https://inbox.example.com"');
    expect(library).toContain('token: "tnx_abc"');
    expect(library).toContain("createInboxWaitFor({");
  });
});
