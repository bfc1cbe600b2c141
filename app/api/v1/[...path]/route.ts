import { AppError } from "@/lib/errors";
import { apiErrorResponse } from "../_lib/define-api-route";

// Anything under /api/v1 that is no call answers in the API's own JSON, not with a page.
const notFound = async () => apiErrorResponse(new AppError("not_found:route"));

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
