//! The first-visit introduction: what the write-up found, and what to try first.

use bench_explorer::Stage;
use leptos::prelude::*;

use super::common::{focus_selector, inlines};
use crate::engine;
use crate::logic::teach::INTRO;
use crate::state::{use_app, Tab};

#[component]
pub fn Intro() -> impl IntoView {
    let app = use_app();
    let show_me = move |_| {
        engine::load_problem(app, "word_ladder");
        app.stage.set(Stage::AsWritten);
        app.tab.set(Tab::Assertions);
        crate::page::dismiss_intro(app);
        focus_selector("[data-testid='stage-as-written']");
    };
    // A one-line banner above the results: the story in a sentence, the one thing to try, and the
    // rest of the write-up's summary behind "More" (the first result stays in view).
    view! {
        <Show when=move || app.intro_open.get()>
            <aside class="intro" data-testid="intro" aria-labelledby="intro-title">
                <div class="intro-line">
                    <h2 id="intro-title">"The bench had quiet bugs."</h2>
                    <span class="intro-lede">
                        "Its extractor checked "<code>"assert result == 5"</code>" without the line that set "<code>"result"</code>"."
                    </span>
                    <details class="intro-more" data-testid="intro-more">
                        <summary>"The story"</summary>
                        {INTRO.iter().map(|p| view! { <p>{inlines(p)}</p> }).collect_view()}
                        <p class="try">
                            <strong>"Try this: "</strong>
                            "pick "<code>"word_ladder"</code>" and switch stages. As written, six of its seven checks assert on "
                            <code>"result"</code>", a name that does not exist where they run; after the six-shape fix they all check the real call."
                        </p>
                    </details>
                    <div class="intro-actions">
                        <button class="btn primary small" data-testid="intro-try" on:click=show_me>"Show me word_ladder, as written"</button>
                        <button class="btn small icon" data-testid="intro-dismiss" aria-label="Dismiss the introduction" title="Got it"
                            on:click=move |_| crate::page::dismiss_intro(app)>"×"</button>
                    </div>
                </div>
            </aside>
        </Show>
    }
}
