"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { InboxCount } from "./inbox-count";

// `section` is the path prefix under which a link shows as the current page.
const LINKS = [
  { href: "/chat", label: "Chat", section: "/chat" },
  { href: "/inbox", label: "Inbox", section: "/inbox" },
  { href: "/settings", label: "Settings", section: "/settings" },
] as const;

const ADMIN_LINK = { href: "/admin/users", label: "Admin", section: "/admin" } as const;
// Reviewers who are not admins reach the one admin page that is theirs too (scoped to their groups).
const INSIGHTS_LINK = { href: "/admin/insights", label: "Insights", section: "/admin/insights" } as const;

/**
 * `admin` adds the Admin entry, `reviewer` (without admin) the Insights one; the admin pages refuse everyone else by themselves. The Inbox
 * entry shows how many requests wait, live, inside an `InboxCountProvider`.
 */
export function NavLinks({ admin, reviewer = false }: { admin: boolean; reviewer?: boolean }) {
  const pathname = usePathname();
  const links = admin ? [...LINKS, ADMIN_LINK] : reviewer ? [...LINKS, INSIGHTS_LINK] : LINKS;
  return (
    <ul className="app-links">
      {links.map((link) => {
        const active = pathname === link.section || pathname.startsWith(`${link.section}/`);
        return (
          <li key={link.href}>
            <Link href={link.href} aria-current={active ? "page" : undefined}>
              {link.label}
              {link.href === "/inbox" && <InboxCount />}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
