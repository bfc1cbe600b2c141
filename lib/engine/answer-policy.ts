import { type EscalationStep, ladderOf } from "@/lib/domain/escalation";
import type { Audience } from "@/lib/domain/events";
import { KNOWN_REQUEST_KINDS, REQUEST_KINDS, requestKindSpec } from "@/lib/domain/request-kinds";
import type { Actor } from "@/lib/domain/roles";
import type { Request } from "@/lib/toolnexus/types";

/**
 * Decides who answers what. Approvals go to reviewers by default, so the person who asked for
 * a production deploy cannot wave it through themselves; input, questions and sign-ins are
 * the owner's, since only they know the answer (and only they should hold the credentials).
 * An approval the tool gate asked for under "the chat's owner approves" says so in
 * `data.audience` (the gate strips that key from every tool's own requests); one it addressed
 * to an approver group names the group and how many approvals it needs (`groupAddressFor`).
 */
export interface AnswerPolicy {
  audienceFor(request: Pick<Request, "kind" | "data">): Audience;
  /**
   * `member`: whether the actor belongs to the request's approver group, for audience "group"
   * (the caller reads it; the policy stays free of storage). The asker never votes (four eyes).
   */
  mayAnswer(input: { actor: Actor; audience: Audience; ownerId: string; member?: boolean }): boolean;
  mayCancel(input: { actor: Actor; ownerId: string }): boolean;
}

/** Who answers each kind the app knows, from the registry of request kinds. */
export const defaultAudienceByKind: Readonly<Record<string, Audience>> = Object.fromEntries(
  KNOWN_REQUEST_KINDS.map((kind) => [kind, REQUEST_KINDS[kind].audience]),
);

export function createAnswerPolicy({
  audienceByKind = {},
  fallback = "owner",
}: {
  /** Overrides per kind, merged over the defaults. */
  audienceByKind?: Record<string, Audience>;
  /** The audience of kinds nobody configured. */
  fallback?: Audience;
} = {}): AnswerPolicy {
  const table = new Map(Object.entries({ ...defaultAudienceByKind, ...audienceByKind }));
  return {
    audienceFor: (request) => {
      const { kind, data } = request;
      if (!requestKindSpec(kind).audienceFromGate) return table.get(kind) ?? fallback;
      if (data?.audience === "owner" || data?.audience === "reviewers") return data.audience;
      if (groupAddressFor(request)) return "group";
      return table.get(kind) ?? fallback;
    },
    mayAnswer: ({ actor, audience, ownerId, member }) =>
      audience === "owner"
        ? actor.id === ownerId
        : audience === "group"
          ? member === true && actor.id !== ownerId
          : actor.role === "reviewer" || actor.role === "admin",
    mayCancel: ({ actor, ownerId }) => actor.id === ownerId || actor.role === "admin",
  };
}

/** The most approvals a request may need from a group. */
export const GROUP_REQUIRED_MAX = 10;

/**
 * The group an approval the gate addressed to one names, and how many of its members must
 * approve; undefined for every other request (a tool's own requests never get here: the gate
 * strips these keys from them).
 */
export function groupAddressFor({
  kind,
  data,
}: Pick<Request, "kind" | "data">): { audienceGroup: string; required: number } | undefined {
  if (!requestKindSpec(kind).audienceFromGate || data?.audience !== "group") return undefined;
  const { audienceGroup, required } = data;
  if (typeof audienceGroup !== "string" || audienceGroup === "") return undefined;
  if (
    typeof required !== "number" ||
    !Number.isInteger(required) ||
    required < 1 ||
    required > GROUP_REQUIRED_MAX
  )
    return undefined;
  return { audienceGroup, required };
}

/**
 * The escalation ladder an approval the gate addressed to reviewers or a group carries (ADR
 * 0093); none for every other request (the gate strips the key from a tool's own requests).
 */
export function escalationFor({ kind, data }: Pick<Request, "kind" | "data">): EscalationStep[] {
  if (!requestKindSpec(kind).audienceFromGate) return [];
  if (data?.audience !== "group" && data?.audience !== "reviewers") return [];
  return ladderOf(data.escalation);
}
