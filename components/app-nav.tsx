import Link from "next/link";
import { signOutAction } from "@/app/login/actions";
import { getPageUser } from "@/lib/auth/page-guards";
import { hasRole } from "@/lib/auth/roles";
import { ModelBadge } from "./model-badge";
import { NavLinks } from "./nav-links";
import { RoleBadge } from "./role-badge";

export async function AppNav() {
  const user = await getPageUser();
  return (
    <header className="app-header">
      <nav className="app-nav" aria-label="Main">
        <Link href="/chat" className="app-brand">
          toolnexus
        </Link>
        {user && <NavLinks admin={hasRole(user.role, "admin")} />}
        <div className="app-account">
          <ModelBadge />
          {user ? (
            <>
              <span data-testid="signed-in-user">
                <span className="visually-hidden">Signed in as </span>
                {user.name ?? user.email}
              </span>
              <RoleBadge role={user.role} />
              <form action={signOutAction}>
                <button type="submit" className="link-button">
                  Sign out
                </button>
              </form>
            </>
          ) : (
            <Link href="/login">Sign in</Link>
          )}
        </div>
      </nav>
    </header>
  );
}
