import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { formatUtc } from "@/components/admin/format-utc";
import { requirePageRole } from "@/lib/auth/guards";
import { listWebhookDeliveryViews } from "@/lib/db/webhook-deliveries";
import { listWebhookEndpointViews } from "@/lib/db/webhook-endpoints";
import type { WebhookDeliveryView } from "@/lib/domain/webhooks";
import { privateAddressesAllowed } from "@/lib/notify/webhook-address";
import { AddEndpointForm } from "./add-endpoint-form";
import { EndpointActions, ReplayButton } from "./row-actions";
import "@/components/admin/admin.css";

export const metadata = { title: "Webhooks · Admin · toolnexus" };

const statusLabel = { pending: "Pending", delivered: "Delivered", failed: "Failed" } as const;

function deliveryNote(delivery: WebhookDeliveryView): string {
  if (delivery.status === "delivered") return `at ${formatUtc(delivery.deliveredAt)}`;
  if (delivery.status === "pending") return `next attempt ${formatUtc(delivery.nextAttemptAt)}`;
  return "gave up";
}

/** Endpoints that receive signed events, and the latest deliveries to them with their outcome. */
export default async function AdminWebhooksPage() {
  await requirePageRole("admin", "/admin/webhooks");
  const { db } = await getAppServices();
  const [endpoints, deliveries] = await Promise.all([
    listWebhookEndpointViews({ db }),
    listWebhookDeliveryViews({ db, limit: 100 }),
  ]);
  return (
    <section className="stack" aria-labelledby="admin-title">
      <h1 id="admin-title" className="page-title">
        Admin
      </h1>
      <AdminTabs current="/admin/webhooks" />
      <section className="stack" aria-labelledby="webhook-endpoints-title">
        <h2 id="webhook-endpoints-title">Webhook endpoints</h2>
        <p className="muted">
          Each event is sent as a signed POST (Standard Webhooks: <code>webhook-id</code>,{" "}
          <code>webhook-timestamp</code>, <code>webhook-signature</code>), retried with backoff until the
          endpoint answers 2xx.{" "}
          {privateAddressesAllowed()
            ? "Endpoints on this machine or a private network are allowed here (TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE=1)."
            : "Only public addresses can receive webhooks; set TOOLNEXUS_WEBHOOKS_ALLOW_PRIVATE=1 to allow private ones."}
        </p>
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Webhook endpoints">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.length === 0 && (
                <tr>
                  <td colSpan={5} className="muted">
                    No endpoints yet.
                  </td>
                </tr>
              )}
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} aria-label={`Endpoint ${endpoint.url}`}>
                  <th scope="row">
                    <span className="admin-server-url">{endpoint.url}</span>
                    {endpoint.description && <div className="muted">{endpoint.description}</div>}
                  </th>
                  <td>{endpoint.events.join(", ")}</td>
                  <td>{endpoint.disabled ? "Disabled" : "Enabled"}</td>
                  <td>
                    <time dateTime={endpoint.createdAt}>{formatUtc(endpoint.createdAt)}</time>
                  </td>
                  <td>
                    <EndpointActions endpoint={endpoint} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddEndpointForm />
      </section>
      <section className="stack" aria-labelledby="webhook-deliveries-title">
        <h2 id="webhook-deliveries-title">Latest deliveries</h2>
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Webhook deliveries">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last result</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.length === 0 && (
                <tr>
                  <td colSpan={6} className="muted">
                    No deliveries yet.
                  </td>
                </tr>
              )}
              {deliveries.map((delivery) => (
                <tr key={delivery.id} aria-label={`Delivery ${delivery.messageId}`}>
                  <th scope="row">
                    <code>{delivery.type}</code>
                    <div className="muted">
                      <code>{delivery.messageId}</code> ·{" "}
                      <time dateTime={delivery.createdAt}>{formatUtc(delivery.createdAt)}</time>
                    </div>
                  </th>
                  <td className="admin-server-url">{delivery.endpointUrl}</td>
                  <td>
                    {statusLabel[delivery.status]} <span className="muted">{deliveryNote(delivery)}</span>
                  </td>
                  <td className="admin-number">{delivery.attempts}</td>
                  <td className="admin-server-error">
                    {delivery.lastStatusCode !== null
                      ? `HTTP ${delivery.lastStatusCode}`
                      : (delivery.lastError ?? "—")}
                  </td>
                  <td>
                    {delivery.status === "pending" ? (
                      "—"
                    ) : (
                      <ReplayButton deliveryId={delivery.id} label={`Replay ${delivery.messageId}`} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </section>
  );
}
