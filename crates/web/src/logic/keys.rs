//! The page's keyboard shortcuts: which key does what. Pure (the listener in `ui/shortcuts.rs`
//! acts), so every binding is tested natively, and the sheet lists [`SHORTCUTS`] from here.

use bench_explorer::model::Stage;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    ToggleSheet,
    Stage(Stage),
    NextAssertion,
    PreviousAssertion,
    FocusEditor,
    FocusResults,
    /// The selected assertion's rule page (a dropped one) or its first shape's page.
    OpenPage,
    Run,
    Stop,
}

/// A key press as the listener sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Press<'a> {
    /// `KeyboardEvent.key` (`"j"`, `"?"`, `"Enter"`).
    pub key: &'a str,
    /// `KeyboardEvent.code` (`"KeyE"`): the physical key, for Alt combinations (on a Mac, Option
    /// changes `key`).
    pub code: &'a str,
    pub ctrl: bool,
    pub meta: bool,
    pub alt: bool,
    pub shift: bool,
    /// The focus is where text is typed (an input, a select, an editor).
    pub typing: bool,
}

/// The action of a key press, if any. Keys with Ctrl/⌘ or Alt+Shift work everywhere, editors
/// included; single keys only outside text fields.
pub fn action(p: Press) -> Option<Action> {
    let command = p.ctrl || p.meta;
    if command && !p.alt && p.key == "Enter" {
        return Some(Action::Run);
    }
    if command && !p.alt && !p.shift && p.key == "." {
        return Some(Action::Stop);
    }
    if p.alt && p.shift && !command {
        return match p.code {
            "KeyE" => Some(Action::FocusEditor),
            "KeyR" => Some(Action::FocusResults),
            _ => None,
        };
    }
    if command || p.alt || p.typing {
        return None;
    }
    Some(match p.key {
        "?" => Action::ToggleSheet,
        "1" => Action::Stage(Stage::AsWritten),
        "2" => Action::Stage(Stage::SixShapes),
        "3" => Action::Stage(Stage::SevenShapes),
        "4" => Action::Stage(Stage::Full),
        "j" => Action::NextAssertion,
        "k" => Action::PreviousAssertion,
        "o" => Action::OpenPage,
        _ => return None,
    })
}

/// (keys, what they do), in the order the sheet shows them.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("?", "Show or hide this sheet"),
    ("Esc", "Close this sheet or the settings"),
    (
        "Ctrl+Enter / ⌘+Enter",
        "Run the file against the chosen solution (Run tab)",
    ),
    ("Ctrl+. / ⌘+.", "Stop the run under way"),
    (
        "1 2 3 4",
        "Stage: as written, six shapes, seven shapes, faithful",
    ),
    (
        "j / k",
        "Next / previous assertion (selects it in the editor)",
    ),
    (
        "o",
        "Open the selected assertion's page: its rule if dropped, else its shape",
    ),
    ("Alt+Shift+E", "Jump to the editor"),
    ("Alt+Shift+R", "Jump to the results"),
    (
        "← / → on the tabs",
        "Move between the result tabs (Home, End: first, last)",
    ),
    ("↑ / ↓ on the results", "Move between assertions"),
    (
        "Ctrl+F / ⌘+F in the editor",
        "Search (and replace) in the file",
    ),
    ("Ctrl+Z / Ctrl+Shift+Z", "Undo / redo in the editor"),
    ("Ctrl+[ / Ctrl+]", "Indent less / more"),
    ("Ctrl+Shift+[ / ]", "Fold / unfold the block at the cursor"),
    ("Ctrl+Shift+M", "Open the editor's list of diagnostics"),
    (
        "Tab, Shift+Tab",
        "Move between controls (Esc, then Tab leaves the editor)",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: &str) -> Press<'_> {
        Press {
            key,
            ..Press::default()
        }
    }

    #[test]
    fn single_keys_act_outside_text_fields_only() {
        assert_eq!(action(key("j")), Some(Action::NextAssertion));
        assert_eq!(action(key("k")), Some(Action::PreviousAssertion));
        assert_eq!(action(key("3")), Some(Action::Stage(Stage::SevenShapes)));
        assert_eq!(action(key("?")), Some(Action::ToggleSheet));
        assert_eq!(action(key("o")), Some(Action::OpenPage));
        for k in ["j", "k", "1", "?", "o"] {
            assert_eq!(
                action(Press {
                    typing: true,
                    ..key(k)
                }),
                None,
                "{k} types in a field"
            );
            assert_eq!(
                action(Press {
                    ctrl: true,
                    ..key(k)
                }),
                None,
                "Ctrl+{k} is the browser's"
            );
        }
        assert_eq!(action(key("x")), None);
    }

    #[test]
    fn command_and_alt_shift_keys_work_in_the_editor_too() {
        let typing = |p: Press<'static>| Press { typing: true, ..p };
        assert_eq!(
            action(typing(Press {
                ctrl: true,
                ..key("Enter")
            })),
            Some(Action::Run)
        );
        assert_eq!(
            action(typing(Press {
                meta: true,
                ..key("Enter")
            })),
            Some(Action::Run)
        );
        assert_eq!(
            action(typing(Press {
                ctrl: true,
                ..key(".")
            })),
            Some(Action::Stop)
        );
        // On a Mac, Option+Shift+E gives `´` as its key: the physical key decides.
        let alt_shift = |code| {
            typing(Press {
                alt: true,
                shift: true,
                code,
                key: "´",
                ..Press::default()
            })
        };
        assert_eq!(action(alt_shift("KeyE")), Some(Action::FocusEditor));
        assert_eq!(action(alt_shift("KeyR")), Some(Action::FocusResults));
        assert_eq!(action(alt_shift("KeyQ")), None);
    }

    #[test]
    fn the_sheet_lists_every_action() {
        let keys: Vec<&str> = SHORTCUTS.iter().map(|(k, _)| *k).collect();
        for listed in [
            "?",
            "Ctrl+Enter / ⌘+Enter",
            "Ctrl+. / ⌘+.",
            "1 2 3 4",
            "j / k",
            "o",
            "Alt+Shift+E",
            "Alt+Shift+R",
        ] {
            assert!(keys.contains(&listed), "{listed}");
        }
    }
}
