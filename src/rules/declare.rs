//! `declare_rules!`: one family of rules, its variants' doc comments as their pages.

/// Declares a family enum: `family Name, prefix "M", title "…", summary "…";` then, for each rule,
/// its page as doc comments, its number and its name: `101 Variant "kebab-name",`.
macro_rules! declare_rules {
    (
        family $fam:ident, prefix $prefix:literal, title $title:literal, summary $summary:literal;
        $( $(#[doc = $doc:literal])* $num:literal $variant:ident $name:literal, )*
    ) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $fam {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl $fam {
            pub const ALL: &'static [$fam] = &[$($fam::$variant),*];
            pub const FAMILY: $crate::rules::Family = $crate::rules::Family {
                prefix: $prefix,
                title: $title,
                summary: $summary,
            };

            pub fn code(self) -> &'static str {
                match self {
                    $($fam::$variant => concat!($prefix, $num),)*
                }
            }

            pub fn name(self) -> &'static str {
                match self {
                    $($fam::$variant => $name,)*
                }
            }

            pub fn doc(self) -> &'static str {
                match self {
                    $($fam::$variant => concat!($($doc, "\n"),*),)*
                }
            }

            /// This rule's words for one drop: see [`crate::rules::Reason`].
            pub fn because(self, text: impl Into<String>) -> $crate::rules::Reason {
                $crate::rules::Rule::$fam(self).because(text)
            }
        }

        impl From<$fam> for $crate::rules::Rule {
            fn from(rule: $fam) -> $crate::rules::Rule {
                $crate::rules::Rule::$fam(rule)
            }
        }
    };
}
