// CodeMirror's search (the panel, its keymap, highlightSelectionMatches), a file of its own
// (editor-search.js): editor.js loads it the first time a search key is pressed or text is
// selected. scripts/bundle.mjs bundles it with @codemirror/state and @codemirror/view taken from
// ./editor.js, so that it extends the editors with the page's own instances of them.
export {
  search,
  searchKeymap,
  highlightSelectionMatches,
  openSearchPanel,
  findNext,
  findPrevious,
  selectSelectionMatches,
  gotoLine,
  selectNextOccurrence,
} from "@codemirror/search";
