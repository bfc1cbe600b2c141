import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../builtins";

let outside: string;
let workspace: string;
beforeEach(() => {
  outside = mkdtempSync(path.join(tmpdir(), "workspace-test-"));
  workspace = path.join(outside, "ws");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  writeFileSync(path.join(workspace, "src", "a.txt"), "alpha secret-free\n");
  writeFileSync(path.join(outside, "secret.txt"), "the server's secret\n");
  symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "src", "link.txt"));
});
afterEach(() => rmSync(outside, { recursive: true, force: true }));

const tools = () => createBuiltinTools({ workspace });
const run = (name: string, args: Record<string, unknown>) =>
  tools()
    .find((t) => t.name === name)!
    .execute(args);

describe("file built-ins confined to a workspace", () => {
  it("resolve relative paths inside the workspace and work there", async () => {
    expect((await run("read", { path: "src/a.txt" })).output).toBe("alpha secret-free\n");
    expect(await run("write", { path: "src/b.txt", content: "beta" })).toMatchObject({ isError: false });
    expect(readFileSync(path.join(workspace, "src", "b.txt"), "utf8")).toBe("beta");
    expect((await run("glob", { pattern: "*.txt" })).output).toBe("src/a.txt\nsrc/b.txt");
    expect((await run("grep", { pattern: "alpha" })).output).toBe("src/a.txt:1: alpha secret-free");
  });

  it("refuse paths outside it: absolute, climbing, or through a symbolic link", async () => {
    for (const given of [path.join(outside, "secret.txt"), "../secret.txt", "src/link.txt"]) {
      expect(await run("read", { path: given })).toMatchObject({
        isError: true,
        output: expect.stringContaining("outside the workspace"),
      });
    }
    expect(await run("write", { path: "../planted.txt", content: "x" })).toMatchObject({ isError: true });
    expect(await run("edit", { path: "src/link.txt", oldString: "the", newString: "a" })).toMatchObject({
      isError: true,
    });
    const patch = "*** Begin Patch\n*** Add File: ../planted.txt\n+x\n*** End Patch";
    expect(await run("apply_patch", { patchText: patch })).toMatchObject({ isError: true });
    expect(await run("glob", { pattern: "../*.txt" })).toMatchObject({ isError: true });
    expect(await run("grep", { pattern: "secret", path: outside })).toMatchObject({ isError: true });
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("the server's secret\n");
  });

  it("leave out what a symbolic link inside points to outside", async () => {
    expect((await run("grep", { pattern: "secret" })).output).toBe("src/a.txt:1: alpha secret-free");
    expect((await run("glob", { pattern: "*.txt" })).output).toBe("src/a.txt");
  });

  it("take paths as given without a workspace, as the reference port does", async () => {
    const read = createBuiltinTools().find((t) => t.name === "read")!;
    expect((await read.execute({ path: path.join(outside, "secret.txt") })).output).toBe(
      "the server's secret\n",
    );
  });
});
