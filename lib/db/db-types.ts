import type { Prisma, PrismaClient } from "@/lib/generated/sqlite/client";

// Both providers' generated clients have the same shape (one schema derives from the other),
// so query modules are typed against one of them and accept either at run time.
export type DbClient = PrismaClient;
export type DbTx = Prisma.TransactionClient;
export type InputJson = Prisma.InputJsonValue;
