import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appBuiltinOptions,
  createAppBuiltins,
  createWebfetchFetch,
  describeAppBuiltins,
} from "./app-builtins";

let outside: string;
let workspace: string;
beforeEach(() => {
  outside = mkdtempSync(path.join(tmpdir(), "app-builtins-"));
  workspace = path.join(outside, "workspace");
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, "notes.txt"), "inside\n");
  writeFileSync(path.join(outside, "secret.txt"), "the server's secret\n");
  symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
  symlinkSync(outside, path.join(workspace, "up"));
});
afterEach(() => rmSync(outside, { recursive: true, force: true }));

const ALL = new Set([
  "bash",
  "read",
  "write",
  "edit",
  "apply_patch",
  "glob",
  "grep",
  "webfetch",
  "todowrite",
  "question",
]);

function toolsIn(dir: string | undefined, enabled: ReadonlySet<string> = ALL) {
  const tools = createAppBuiltins(enabled, appBuiltinOptions(dir === undefined ? {} : { workspace: dir }));
  const call = (name: string, args: Record<string, unknown>) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`${name} is not offered`);
    return tool.execute(args);
  };
  return { names: tools.map((t) => t.name), call };
}

describe("the app's built-ins", () => {
  it("offers only what an admin switched on, never the library's question tool", () => {
    expect(toolsIn(workspace, new Set()).names).toEqual([]);
    expect(toolsIn(workspace, new Set(["bash", "webfetch"])).names.sort()).toEqual(["bash", "webfetch"]);
    expect(toolsIn(workspace).names).not.toContain("question");
  });

  it("leaves out the tools that work on files while no workspace is configured", () => {
    expect(toolsIn(undefined).names.sort()).toEqual(["todowrite", "webfetch"]);
    const rows = describeAppBuiltins(new Set(["bash", "webfetch"]), undefined);
    expect(rows.find((row) => row.name === "bash")).toMatchObject({ enabled: true, offered: false });
    expect(rows.find((row) => row.name === "webfetch")).toMatchObject({ enabled: true, offered: true });
  });

  it("work inside the workspace, relative paths starting there", async () => {
    const { call } = toolsIn(workspace);
    expect((await call("read", { path: "notes.txt" })).output).toBe("inside\n");
    expect(await call("write", { path: "new.txt", content: "made" })).toMatchObject({ isError: false });
    expect(readFileSync(path.join(workspace, "new.txt"), "utf8")).toBe("made");
  });

  it("refuse a path that climbs out with .., and write nothing outside", async () => {
    const { call } = toolsIn(workspace);
    for (const given of ["../secret.txt", "sub/../../secret.txt"]) {
      expect(await call("read", { path: given })).toMatchObject({
        isError: true,
        output: expect.stringContaining("outside the workspace"),
      });
    }
    expect(await call("write", { path: "../planted.txt", content: "x" })).toMatchObject({ isError: true });
    const patch = "*** Begin Patch\n*** Add File: ../planted.txt\n+x\n*** End Patch";
    expect(await call("apply_patch", { patchText: patch })).toMatchObject({ isError: true });
    expect(() => readFileSync(path.join(outside, "planted.txt"))).toThrow();
  });

  it("refuse an absolute path outside the workspace", async () => {
    const { call } = toolsIn(workspace);
    expect(await call("read", { path: path.join(outside, "secret.txt") })).toMatchObject({ isError: true });
    expect(await call("read", { path: "/etc/hostname" })).toMatchObject({ isError: true });
    expect(await call("glob", { pattern: `${outside}/*.txt` })).toMatchObject({ isError: true });
  });

  it("refuse symbolic links that lead out, to a file or through a directory", async () => {
    const { call } = toolsIn(workspace);
    expect(await call("read", { path: "link.txt" })).toMatchObject({ isError: true });
    expect(await call("read", { path: "up/secret.txt" })).toMatchObject({ isError: true });
    expect(await call("write", { path: "up/planted.txt", content: "x" })).toMatchObject({ isError: true });
    expect(await call("edit", { path: "link.txt", oldString: "secret", newString: "x" })).toMatchObject({
      isError: true,
    });
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("the server's secret\n");
  });

  it("start bash in the workspace", async () => {
    const { call } = toolsIn(workspace);
    expect((await call("bash", { command: "pwd" })).output.trim()).toBe(realpathSync(workspace));
  });
});

describe("the app's webfetch", () => {
  let server: Server;
  let hits = 0;
  let url: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hits += 1;
      response.end("private page");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const webfetch = (allowPrivate: boolean) =>
    createAppBuiltins(
      new Set(["webfetch"]),
      appBuiltinOptions({ fetch: createWebfetchFetch({ allowPrivate }) }),
    )[0]!;

  it("refuses this machine and private addresses, by literal or by name, sending nothing", async () => {
    const tool = webfetch(false);
    const port = new URL(url).port;
    for (const target of [url, `http://localhost:${port}/`, `http://[::1]:${port}/`, "http://10.0.0.1/"]) {
      const result = await tool.execute({ url: target, timeout: 5 });
      expect(result).toMatchObject({ isError: true });
      expect(result.output).toContain("refused by the outbound address policy");
      expect(result.output).not.toContain("127.0.0.1");
    }
    expect(hits).toBe(0);
  });

  it("is the same policy: a deployment that allows private addresses reaches it", async () => {
    expect(await webfetch(true).execute({ url, format: "text" })).toMatchObject({
      isError: false,
      output: "private page",
    });
    expect(hits).toBe(1);
  });

  it("follows the deployment's setting by default", async () => {
    const previous = process.env.TOOLNEXUS_OUTBOUND_ALLOW_PRIVATE;
    expect(previous).not.toBe("1");
    const tool = createAppBuiltins(new Set(["webfetch"]), appBuiltinOptions())[0]!;
    expect(await tool.execute({ url, timeout: 5 })).toMatchObject({ isError: true });
    expect(hits).toBe(1);
  });
});
