import type { Role } from "./roles";

// The rows of the admin pages, as the database returns them and the tables render them.

export interface UserListRow {
  id: string;
  name: string | null;
  email: string | null;
  role: Role;
  createdAt: string;
  /** Requests of their chats still waiting for an answer. */
  openRequests: number;
}

export interface ActiveRunRow {
  id: string;
  threadTitle: string;
  ownerId: string;
  ownerName: string | null;
  status: "running" | "pending";
  startedAt: string;
  openRequests: number;
}
