// A small client typed only by the types openapi-typescript generates from
// the served document (vds.d.ts, written next to this file by the test).
// tsc --strict must accept it, and must reject each @ts-expect-error line:
// were the generated types loose (any), those lines would fail the build.
import type { components, paths } from "./vds";

type CarPage = paths["/v1/cars"]["get"]["responses"]["200"]["content"]["application/json"];
type CarQuery = NonNullable<paths["/v1/cars"]["get"]["parameters"]["query"]>;
type VINReport = paths["/v1/vin/{vin}"]["get"]["responses"]["200"]["content"]["application/json"];
type VINPath = paths["/v1/vin/{vin}"]["get"]["parameters"]["path"];
type Makes = paths["/v1/cars/makes"]["get"]["responses"]["200"]["content"]["application/json"];
type ListProblem = paths["/v1/cars"]["get"]["responses"]["400"]["content"]["application/problem+json"];
type Problem = components["schemas"]["Problem"];

async function getJSON<T>(server: string, path: string, token: string): Promise<T> {
  const resp = await fetch(new URL(path, server), { headers: { Authorization: `Bearer ${token}` } });
  if (!resp.ok) {
    const problem = (await resp.json()) as Problem;
    throw new Error(`${problem.status} ${problem.code}: ${problem.detail}`);
  }
  return (await resp.json()) as T;
}

export async function camrys(server: string, token: string): Promise<string[]> {
  const query: CarQuery = { make: "Toyota", model: "Camry", per_page: 10 };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined) params.set(k, String(v));
  }
  const page = await getJSON<CarPage>(server, `/v1/cars?${params}`, token);
  const total: number = page.meta.total;
  const truncated: boolean = page.meta.truncated;
  // @ts-expect-error per_page is a number, not a string
  const wrong: string = page.meta.per_page;
  void wrong;
  return page.data.map((car) => `${car.make} ${car.model} ${car.year} (${total}${truncated ? "+" : ""})`);
}

export async function decode(server: string, token: string, path: VINPath): Promise<string> {
  const report = await getJSON<VINReport>(server, `/v1/vin/${encodeURIComponent(path.vin)}`, token);
  const year: number | null = report.data.year;
  // @ts-expect-error make may be null in a VIN report
  const make: string = report.data.make;
  void make;
  return `${report.data.vin}: ${year ?? "unknown year"}`;
}

export async function makes(server: string, token: string): Promise<number> {
  const body = await getJSON<Makes>(server, "/v1/cars/makes", token);
  return body.data.reduce((n, m) => n + m.count, 0);
}

export function explain(p: ListProblem): string {
  // The 400 of a list names its codes; any other is a type error.
  const code: "invalid_parameter" | "unknown_parameter" | "query_too_broad" | undefined = p.code;
  // @ts-expect-error not_found is not a 400 code of /v1/cars
  const other: ListProblem["code"] = "not_found";
  void other;
  return `${code}: ${p.detail}`;
}
