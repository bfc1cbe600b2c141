import { getAppServices } from "@/app/_lib/app-services";
import { AdminTabs } from "@/components/admin/admin-tabs";
import { formatUtc } from "@/components/admin/format-utc";
import { OutboundAddressNote } from "@/components/admin/outbound-address-note";
import { requirePageRole } from "@/lib/auth/guards";
import { listWebhookDeliveryViews } from "@/lib/db/webhook-deliveries";
import { listWebhookEndpointViews } from "@/lib/db/webhook-endpoints";
import { outboundPrivateAllowed } from "@/lib/http/outbound-address";
import { AddEndpointForm } from "./add-endpoint-form";
import {
  DELIVERIES_PAGE_SIZE,
  DeliveriesSection,
  deliverySearch,
  parseDeliveryFilters,
} from "./deliveries-section";
import { EndpointActions } from "./row-actions";
import "@/components/admin/admin.css";

export const metadata = { title: "Webhooks · Admin · toolnexus" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Endpoints that receive signed events, and their deliveries, newest first, page by page. */
export default async function AdminWebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const filters = parseDeliveryFilters(await searchParams);
  await requirePageRole("admin", `/admin/webhooks${deliverySearch(filters)}`);
  const { db } = await getAppServices();
  const [endpoints, deliveries] = await Promise.all([
    listWebhookEndpointViews({ db }),
    listWebhookDeliveryViews({
      db,
      page: filters.page,
      pageSize: DELIVERIES_PAGE_SIZE,
      ...(filters.status ? { status: filters.status } : {}),
    }),
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
          endpoint answers 2xx. <OutboundAddressNote allowPrivate={outboundPrivateAllowed()} />
        </p>
        <div className="admin-table-wrap">
          <table className="admin-table admin-table-stack" aria-label="Webhook endpoints">
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
                  <td data-label="Events">{endpoint.events.join(", ")}</td>
                  <td data-label="Status">{endpoint.disabled ? "Disabled" : "Enabled"}</td>
                  <td data-label="Added">
                    <time dateTime={endpoint.createdAt}>{formatUtc(endpoint.createdAt)}</time>
                  </td>
                  <td data-label="Actions">
                    <EndpointActions endpoint={endpoint} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddEndpointForm />
      </section>
      <DeliveriesSection
        deliveries={deliveries.rows}
        total={deliveries.total}
        filters={filters}
        pages={Math.max(1, Math.ceil(deliveries.total / DELIVERIES_PAGE_SIZE))}
      />
    </section>
  );
}
