// Placeholder until scripts/build-view.ts writes it.
export const VIEW_SCRIPT = "";
export const VIEW_STYLE = "";
