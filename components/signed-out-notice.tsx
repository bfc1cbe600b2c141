"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";

/** Shown once a live view learns that the session ended: it stops following and says why. */
export function SignedOutNotice() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const back = `${pathname}${search ? `?${search}` : ""}`;
  return (
    <p role="alert" className="alert alert-error signed-out-notice">
      You are signed out, so this page no longer updates.{" "}
      <Link href={`/login?callbackUrl=${encodeURIComponent(back)}`}>Sign in</Link> to continue.
    </p>
  );
}
