//! Configuration: pytest's configuration: ini options, `addopts`, warning filters, plugins and conftest hooks that change how every test runs.

declare_rules! {
    family Config, prefix "P", title "Configuration",
    summary "pytest's configuration: ini options, `addopts`, warning filters, plugins and conftest hooks that change how every test runs.";
}
