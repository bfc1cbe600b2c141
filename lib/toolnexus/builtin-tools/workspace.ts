import { realpath } from "node:fs/promises";
import path from "node:path";

/**
 * Turns a path a model gave into the one a file built-in may touch. Without a workspace, paths
 * are taken as given (relative to the process's working directory), as in the reference port.
 */
export type PathGate = (given: string) => Promise<string>;

export const UNCONFINED: PathGate = async (given) => given;

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The real path of `target`, or of its nearest existing ancestor joined with the rest. */
async function realOrNearest(target: string): Promise<string> {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await realpath(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Paths resolved against `root` and refused unless they stay inside it, symbolic links
 * followed: a host serving other people must not let a model read or change the server's files.
 */
export function confineTo(root: string): PathGate {
  const absoluteRoot = path.resolve(root);
  let realRoot: Promise<string> | undefined;
  return async (given) => {
    const resolved = path.resolve(absoluteRoot, given);
    realRoot ??= realpath(absoluteRoot);
    const real = await realOrNearest(resolved);
    if (!inside(absoluteRoot, resolved) || !inside(await realRoot, real)) {
      throw new Error(`${given} is outside the workspace`);
    }
    return resolved;
  };
}

/** Glob patterns may not climb out of the directory they search. */
export function refuseClimbing(pattern: string, gate: PathGate): void {
  if (gate !== UNCONFINED && (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes(".."))) {
    throw new Error(`${pattern} reaches outside the workspace`);
  }
}
