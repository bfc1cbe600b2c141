import Link from "next/link";
import { z } from "zod";
import { AdminPagination } from "@/components/admin/admin-pagination";
import { formatUtc } from "@/components/admin/format-utc";
import type { WebhookDeliveryView } from "@/lib/domain/webhooks";
import { ReplayButton } from "./row-actions";

export const DELIVERIES_PAGE_SIZE = 50;

type Status = WebhookDeliveryView["status"];

export interface DeliveryFilters {
  status: Status | undefined;
  page: number;
}

const STATUS_FILTERS: Array<{ value: Status | undefined; label: string }> = [
  { value: undefined, label: "All" },
  { value: "pending", label: "Pending" },
  { value: "delivered", label: "Delivered" },
  { value: "failed", label: "Failed" },
];

const statusLabel = { pending: "Pending", delivered: "Delivered", failed: "Failed" } as const;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The page's filters from its URL; a value that is not one of them (a hand-edited URL) is "any". */
export function parseDeliveryFilters(params: Record<string, string | string[] | undefined>): DeliveryFilters {
  const status = z.enum(["pending", "delivered", "failed"]).safeParse(first(params.status));
  const page = z.coerce.number().int().min(1).max(10_000).safeParse(first(params.page));
  return { status: status.success ? status.data : undefined, page: page.success ? page.data : 1 };
}

/** The query string of a filter set, leaving the defaults out. */
export function deliverySearch({ status, page }: DeliveryFilters): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

function deliveryNote(delivery: WebhookDeliveryView): string {
  if (delivery.status === "delivered") return `at ${formatUtc(delivery.deliveredAt)}`;
  if (delivery.status === "pending") return `next attempt ${formatUtc(delivery.nextAttemptAt)}`;
  return "gave up";
}

/** The deliveries of every endpoint, newest first, one page at a time, of one status or all. */
export function DeliveriesSection({
  deliveries,
  total,
  filters,
  pages,
}: {
  deliveries: WebhookDeliveryView[];
  total: number;
  filters: DeliveryFilters;
  pages: number;
}) {
  return (
    <section className="stack" aria-labelledby="webhook-deliveries-title">
      <h2 id="webhook-deliveries-title">Deliveries</h2>
      <nav aria-label="Delivery status" className="admin-filter-links">
        {STATUS_FILTERS.map(({ value, label }) => (
          <Link
            key={label}
            href={`/admin/webhooks${deliverySearch({ status: value, page: 1 })}`}
            aria-current={filters.status === value ? "page" : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      <p className="muted" aria-live="polite">
        {total === 1 ? "1 delivery" : `${total} deliveries`}
      </p>
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
                  {filters.status ? "No deliveries with this status." : "No deliveries yet."}
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
      <AdminPagination
        page={filters.page}
        pages={pages}
        hrefFor={(page) => `/admin/webhooks${deliverySearch({ ...filters, page })}`}
      />
    </section>
  );
}
