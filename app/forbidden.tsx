import { Forbidden } from "@/components/forbidden";

export default function ForbiddenPage() {
  return <Forbidden />;
}
