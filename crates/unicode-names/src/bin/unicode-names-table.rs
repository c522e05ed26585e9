//! Write the names table for the page: `unicode-names-table DIR` writes `DIR/<TABLE_FILE>`, the file
//! the page's wasm fetches (from its own folder) for a text that contains `\N`. Trunk.toml runs it
//! after each build of the page.

fn main() {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: unicode-names-table DIR");
        std::process::exit(2);
    };
    let path = std::path::Path::new(&dir).join(unicode_names2::TABLE_FILE);
    if let Err(e) = std::fs::write(&path, unicode_names2::TABLE_BYTES) {
        eprintln!("unicode-names-table: {}: {e}", path.display());
        std::process::exit(1);
    }
    eprintln!(
        "unicode-names-table: wrote {} ({} bytes)",
        path.display(),
        unicode_names2::TABLE_BYTES.len()
    );
}
