import { OutboundAddressNote } from "@/components/admin/outbound-address-note";
import { AddServerForm } from "./add-server-form";
import type { ServersSection as Section } from "./load-servers-section";
import { ServerRowActions } from "./server-row-actions";

const statusLabel = { connected: "Connected", failed: "Failed", disabled: "Disabled" } as const;

/**
 * The MCP servers part of /admin/tools: every server the agent may use, with its status, its
 * tool count and its last error; remote servers are added, disabled and removed here. Servers
 * that run as a local process come only from the config file on the server.
 */
export function ServersSection({
  section,
  configFile,
  allowPrivate,
}: {
  section: Section;
  configFile?: string;
  allowPrivate: boolean;
}) {
  return (
    <section className="stack" aria-labelledby="mcp-servers-title">
      <h2 id="mcp-servers-title">MCP servers</h2>
      <p className="muted">
        {configFile ? (
          <>
            Servers that run as a local process come from <code>{configFile}</code> on the server (
            <code>TOOLNEXUS_MCP_CONFIG</code>) and are changed there.
          </>
        ) : (
          <>
            No config file is set (<code>TOOLNEXUS_MCP_CONFIG</code>); servers that run as a local process can
            only come from one.
          </>
        )}{" "}
        Remote servers added here apply to the next run on every instance.{" "}
        <OutboundAddressNote allowPrivate={allowPrivate} />
      </p>
      {section.configError && (
        <p role="alert" className="alert alert-error">
          {section.configError}
        </p>
      )}
      {/* On a phone the table scrolls sideways; keyboard users reach it by focusing its frame. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable */}
      <section className="admin-table-wrap" tabIndex={0} aria-label="MCP servers, scrollable">
        <table className="admin-table" aria-label="MCP servers">
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Source</th>
              <th scope="col">Status</th>
              <th scope="col">Tools</th>
              <th scope="col">Last error</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {section.rows.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  No MCP servers yet.
                </td>
              </tr>
            )}
            {section.rows.map((row) => (
              <tr key={`${row.origin}:${row.name}`} aria-label={`Server ${row.name}`}>
                <th scope="row">
                  <code>{row.name}</code>
                  {row.admin && <div className="muted admin-server-url">{row.admin.url}</div>}
                  {row.admin && row.admin.headerNames.length > 0 && (
                    <div className="muted">Headers: {row.admin.headerNames.join(", ")} (values hidden)</div>
                  )}
                  {row.perUser && (
                    <div className="muted">
                      Each user signs in
                      {row.perUser.client
                        ? ` (client ${row.perUser.client})`
                        : " (client registered dynamically)"}
                    </div>
                  )}
                </th>
                <td>{row.origin === "config" ? "Config file" : "Added here"}</td>
                <td>
                  <span className={`badge badge-server-${row.status}`}>{statusLabel[row.status]}</span>
                </td>
                <td>{row.status === "connected" ? row.toolCount : "—"}</td>
                <td className="admin-server-error">{row.error ?? "—"}</td>
                <td>{row.admin ? <ServerRowActions server={{ name: row.name, ...row.admin }} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <AddServerForm />
    </section>
  );
}
