import { describeModel, readModelConfig } from "@/lib/agent/model-config";

/** Tells people which model answers; the offline demo model is always labelled as a demo. */
export function ModelBadge() {
  let model: { demo: boolean; label: string };
  try {
    model = describeModel(readModelConfig());
  } catch {
    return <span className="badge badge-role-admin">model misconfigured</span>;
  }
  return (
    <span className={model.demo ? "badge badge-demo" : "badge"} title="The model that answers in the chat">
      {model.demo ? "Demo model (offline)" : model.label}
    </span>
  );
}
