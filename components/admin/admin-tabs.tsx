import Link from "next/link";

const TABS = [
  { href: "/admin/users", label: "Users" },
  { href: "/admin/runs", label: "Runs" },
  { href: "/admin/tools", label: "Tools" },
  { href: "/admin/groups", label: "Groups" },
  { href: "/admin/webhooks", label: "Webhooks" },
  { href: "/admin/tokens", label: "API tokens" },
  { href: "/admin/audit", label: "Audit" },
  { href: "/admin/insights", label: "Insights" },
] as const;

/** The admin section's own navigation, under its page title. */
export function AdminTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav aria-label="Admin">
      <ul className="admin-tabs">
        {TABS.map((tab) => (
          <li key={tab.href}>
            <Link href={tab.href} aria-current={tab.href === current ? "page" : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
