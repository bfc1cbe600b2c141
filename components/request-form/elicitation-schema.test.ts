import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import Form from "@rjsf/core";
import type { RJSFSchema, UiSchema } from "@rjsf/utils";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { elicitationFormSchema, secretLookingFields } from "./elicitation-schema";
import { schemaValidator as validator } from "./schema-validator";

const root = path.resolve(import.meta.dirname, "../..");

/** The form schema the protocol's reference server really sends, captured from a live call. */
async function referenceServerSchema(): Promise<Record<string, unknown>> {
  const client = new Client({ name: "schema-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  let captured: Record<string, unknown> | undefined;
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    captured = (request.params as { requestedSchema: Record<string, unknown> }).requestedSchema;
    return { action: "decline" };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
      stderr: "ignore",
    }),
  );
  try {
    await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
  } finally {
    await client.close();
  }
  if (!captured) throw new Error("the server did not elicit");
  return captured;
}

function render(schema: Record<string, unknown>, uiSchema: Record<string, unknown>): string {
  return renderToStaticMarkup(
    createElement(Form, {
      schema: schema as RJSFSchema,
      uiSchema: uiSchema as UiSchema,
      validator,
      idPrefix: "f",
    }),
  );
}

describe("elicitationFormSchema", () => {
  let reference: Record<string, unknown>;
  beforeAll(async () => {
    reference = await referenceServerSchema();
  }, 30_000);

  it("draws every field of the reference server's form, with titled choices and multi-selects", () => {
    const form = elicitationFormSchema(reference);
    if (!form.renderable) throw new Error(form.reason);
    const html = render(form.schema, form.uiSchema);
    for (const name of Object.keys(reference.properties as object)) expect(html).toContain(`id="f_${name}"`);
    // Titled options show their titles, including the older enumNames spelling.
    for (const title of ["Superman", "Tuna", "Dogs", "Chandler", "Piano"]) expect(html).toContain(title);
    // Multi-selects are checkboxes; defaults are filled in.
    expect(html).toMatch(/type="checkbox"[^>]*id="f_titledMultipleSelectEnum-0"/);
    expect(html).toContain("It was a dark and stormy night.");
    // What the form would submit from the defaults satisfies the server's own schema.
    const { errors } = validator.validateFormData(
      { name: "Ada", titledMultipleSelectEnum: ["fish-2"], untitledMultipleSelectEnum: ["Drums"] },
      form.schema as RJSFSchema,
    );
    expect(errors).toEqual([]);
  });

  it("does not take the reference form for one that asks for secrets", () => {
    expect(secretLookingFields(reference)).toEqual([]);
  });

  it.each([
    [
      "a nested object",
      { type: "object", properties: { address: { type: "object", properties: {} } } },
      /address/,
    ],
    [
      "a list of free text",
      { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } },
      /tags/,
    ],
    ["an unknown format", { type: "object", properties: { at: { type: "string", format: "ipv4" } } }, /ipv4/],
    ["no properties", { type: "object" }, /not an object/],
    ["a schema that is not an object", "name please", /not an object/],
    [
      "malformed choices",
      { type: "object", properties: { c: { type: "string", oneOf: [{ title: "x" }] } } },
      /c/,
    ],
  ])("refuses %s, so the request falls back to the JSON box", (_what, schema, reason) => {
    const form = elicitationFormSchema(schema);
    expect(form.renderable).toBe(false);
    if (!form.renderable) expect(form.reason).toMatch(reason);
  });
});

describe("secretLookingFields", () => {
  it("names fields whose name or title asks for a password, token or key", () => {
    const schema = {
      type: "object",
      properties: {
        apiKey: { type: "string" },
        user_password: { type: "string", title: "Password" },
        githubToken: { type: "string", title: "GitHub token" },
        secret: { type: "string" },
        summary: { type: "string", description: "Never paste a token here" },
        monkey: { type: "string" },
        keyboard: { type: "string" },
        tokenizer: { type: "string" },
      },
    };
    expect(secretLookingFields(schema)).toEqual(["apiKey", "Password", "GitHub token", "secret"]);
  });
});
