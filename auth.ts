import NextAuth from "next-auth";
import { createAuthConfig } from "@/lib/auth/auth-config";
import { getDb } from "@/lib/db/client";

export const { handlers, auth, signIn, signOut } = NextAuth(createAuthConfig({ db: getDb }));
