import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBuiltinTools } from "../builtins";
import type { Tool } from "../types";

const named = (name: string, tools: Tool[] = createBuiltinTools()) => tools.find((t) => t.name === name)!;
const run = (name: string, args: Record<string, unknown>) => named(name).execute(args);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "builtins-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the file built-ins", () => {
  it("write, read (whole and a window of lines) and edit a file", async () => {
    const file = path.join(dir, "notes.txt");
    expect(await run("write", { path: file, content: "one\ntwo\none\n" })).toMatchObject({
      isError: false,
      output: expect.stringMatching(/^Wrote 12 bytes/),
    });
    expect((await run("read", { path: file })).output).toBe("one\ntwo\none\n");
    expect((await run("read", { path: file, offset: 2, limit: 2 })).output).toBe("two\none");
    const ambiguous = await run("edit", { path: file, oldString: "one", newString: "1" });
    expect(ambiguous).toMatchObject({ isError: true, output: expect.stringContaining("not unique") });
    expect(await run("edit", { path: file, oldString: "three", newString: "3" })).toMatchObject({
      isError: true,
      output: expect.stringContaining("not found"),
    });
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\none\n");
    expect((await run("edit", { path: file, oldString: "two", newString: "2" })).isError).toBe(false);
    expect(
      (await run("edit", { path: file, oldString: "one", newString: "1", replaceAll: true })).isError,
    ).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("1\n2\n1\n");
    expect((await run("read", { path: path.join(dir, "missing") })).isError).toBe(true);
  });

  it("glob and grep find files and lines, narrowed by include", async () => {
    writeFileSync(path.join(dir, "a.txt"), "needle\nhay\n");
    writeFileSync(path.join(dir, "b.txt"), "hay\nneedle too\n");
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub", "c.md"), "a needle\n");
    const glob = await run("glob", { pattern: "*.txt", path: dir });
    expect(glob).toMatchObject({ output: "a.txt\nb.txt", metadata: { count: 2 } });
    expect((await run("glob", { pattern: "*.md", path: dir })).output).toBe("sub/c.md");
    const grep = await run("grep", { pattern: "need+le", path: dir });
    expect(grep.metadata).toEqual({ count: 3 });
    expect(grep.output).toContain("b.txt:2: needle too");
    expect((await run("grep", { pattern: "needle", path: dir, include: "*.txt" })).metadata).toEqual({
      count: 2,
    });
  });

  it("apply_patch adds, updates and deletes, and changes nothing when a hunk does not match", async () => {
    const keep = path.join(dir, "keep.txt");
    const gone = path.join(dir, "gone.txt");
    const added = path.join(dir, "added.txt");
    writeFileSync(keep, "a\nb\nc\n");
    writeFileSync(gone, "x\n");
    const patch = (body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
    const applied = await run("apply_patch", {
      patchText: patch([
        `*** Add File: ${added}`,
        "+new 1",
        "+new 2",
        `*** Update File: ${keep}`,
        "@@",
        " a",
        "-b",
        "+B",
        ` c`,
        `*** Delete File: ${gone}`,
      ]),
    });
    expect(applied.isError).toBe(false);
    expect(readFileSync(added, "utf8")).toBe("new 1\nnew 2");
    expect(readFileSync(keep, "utf8")).toBe("a\nB\nc\n");
    expect(existsSync(gone)).toBe(false);
    const never = path.join(dir, "never.txt");
    const refused = await run("apply_patch", {
      patchText: patch([
        `*** Add File: ${never}`,
        "+n",
        `*** Update File: ${keep}`,
        "@@",
        "-nothing like it",
        "+z",
      ]),
    });
    expect(refused).toMatchObject({ isError: true, output: expect.stringContaining("does not match") });
    expect(existsSync(never)).toBe(false);
    expect(readFileSync(keep, "utf8")).toBe("a\nB\nc\n");
    expect((await run("apply_patch", { patchText: "no markers" })).isError).toBe(true);
  });
});

describe("bash and todowrite", () => {
  it("runs a command in its workdir; a non-zero exit is an error with its code", async () => {
    expect(await run("bash", { command: "printf hi; printf ' there' >&2" })).toMatchObject({
      isError: false,
      output: "hi there",
      metadata: { exitCode: 0 },
    });
    expect(await run("bash", { command: "exit 4" })).toMatchObject({
      isError: true,
      output: expect.stringContaining("code 4"),
      metadata: { exitCode: 4 },
    });
    expect((await run("bash", { command: "pwd", workdir: dir })).output.trim()).toBe(realpathSync(dir));
    expect((await run("bash", { command: "sleep 5", timeout: 200 })).isError).toBe(true);
  });

  it("renders the todo list it was given and hands it back structured", async () => {
    const todos = [
      { id: "1", text: "write", completed: true },
      { id: "2", text: "ship", completed: false },
    ];
    expect(await run("todowrite", { todos })).toEqual({
      output: "[x] write\n[ ] ship",
      isError: false,
      metadata: { todos },
    });
  });
});

describe("webfetch", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/page")
        res
          .writeHead(200, { "content-type": "text/html" })
          .end("<p>Hello <b>page</b></p><script>x()</script>");
      else if (req.url === "/hop") res.writeHead(302, { location: "/page" }).end();
      else res.writeHead(500).end("broken");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("returns the page as text or html with its status, and an error status as an error", async () => {
    expect(await run("webfetch", { url: `${base}/page` })).toEqual({
      output: "Hello page",
      isError: false,
      metadata: { status: 200, format: "markdown" },
    });
    expect((await run("webfetch", { url: `${base}/page`, format: "html" })).output).toContain("<b>page</b>");
    expect(await run("webfetch", { url: `${base}/err` })).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^HTTP 500/),
    });
    expect((await run("webfetch", { url: "file:///etc/passwd" })).isError).toBe(true);
  });

  it("asks its guard about every address, redirects included", async () => {
    const seen: string[] = [];
    const tools = createBuiltinTools({
      webfetchGuard: (url) => {
        seen.push(url.pathname);
        if (url.pathname === "/page") throw new Error("That address is not allowed");
      },
    });
    expect(await named("webfetch", tools).execute({ url: `${base}/hop` })).toEqual({
      output: "That address is not allowed",
      isError: true,
    });
    expect(seen).toEqual(["/hop", "/page"]);
  });

  it("fetches through the fetch it is given", async () => {
    const asked: string[] = [];
    const tools = createBuiltinTools({
      webfetchFetch: async (input) => {
        asked.push(String(input));
        return new Response("from the host's fetch", { status: 200 });
      },
    });
    expect((await named("webfetch", tools).execute({ url: "https://example.test/x" })).output).toBe(
      "from the host's fetch",
    );
    expect(asked).toEqual(["https://example.test/x"]);
  });
});
