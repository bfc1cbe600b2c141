import type { FieldIssue } from "@/lib/errors";

/**
 * A refused admin form's errors, each said once: the field-level issues with the field's name,
 * and the overall message only when it says something the issues do not.
 */
export function FormErrors({
  text,
  issues,
  labels,
}: {
  text: string;
  issues: FieldIssue[];
  labels: Record<string, string>;
}) {
  const seen = new Set<string>();
  const distinct = issues.filter((issue) => {
    const key = `${issue.path}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const repeated = distinct.some((issue) => issue.message === text || text.includes(issue.message));
  return (
    <div role="alert" className="alert alert-error">
      {!repeated && <p>{text}</p>}
      {distinct.length > 0 && (
        <ul>
          {distinct.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              {labels[issue.path] ?? "This form"}: {issue.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
