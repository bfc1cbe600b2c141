import type { FieldIssue } from "@/lib/errors";

export interface ErrorNode {
  __errors?: string[];
  [key: string]: ErrorNode | string[] | undefined;
}

function decodePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * Turns server-side field issues (JSON pointers) into the nested error tree RJSF displays next
 * to each field, so a refusal by the server looks like the browser's own validation.
 */
export function issuesToErrorSchema(issues: FieldIssue[]): ErrorNode {
  const root: ErrorNode = {};
  for (const issue of issues) {
    const tokens = issue.path === "" ? [] : issue.path.replace(/^\//, "").split("/").map(decodePointerToken);
    let node = root;
    for (const token of tokens) {
      const next = node[token];
      if (next === undefined || Array.isArray(next)) {
        const created: ErrorNode = {};
        node[token] = created;
        node = created;
      } else {
        node = next;
      }
    }
    node.__errors = [...(node.__errors ?? []), issue.message];
  }
  return root;
}
