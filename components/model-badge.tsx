/** The model that answers, or null when its configuration could not be read. */
export type ModelLabel = { demo: boolean; label: string } | null;

/** Tells people which model answers; the offline demo model is always labelled as a demo. */
export function ModelBadge({ model }: { model: ModelLabel }) {
  if (!model) return <span className="badge badge-role-admin">model misconfigured</span>;
  return (
    <span className={model.demo ? "badge badge-demo" : "badge"} title="The model that answers in the chat">
      {model.demo ? "Demo model (offline)" : model.label}
    </span>
  );
}
