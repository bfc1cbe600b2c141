import type { FieldIssue } from "@/lib/errors";

/**
 * The refusal of one field, shown beside its input: the first issue a refused action named at
 * `path`, under `id` for the input's `aria-describedby`; nothing when the field is fine.
 */
export function FieldError({
  issues,
  path,
  id,
  className = "field-error",
}: {
  issues: FieldIssue[];
  path: string;
  id: string;
  className?: string;
}) {
  const issue = issues.find((candidate) => candidate.path === path);
  return issue ? (
    <span id={id} className={className}>
      {issue.message}
    </span>
  ) : null;
}
