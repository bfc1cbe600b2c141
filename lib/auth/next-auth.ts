import NextAuth from "next-auth";
import { getDb } from "@/lib/db/sql/client";
import { createAuthConfig } from "./auth-config";

// The app's one next-auth instance: route handlers, actions and guards all read sessions here.
export const { handlers, auth, signIn, signOut } = NextAuth(createAuthConfig({ db: getDb }));
