//! Just enough Markdown for the bench's problem statements, parsed into plain data that the page
//! renders as text nodes (never as HTML): headings, paragraphs, bullet lists, fenced code, and
//! inline `code` and **bold**.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    List(Vec<Vec<Inline>>),
    Code { lang: String, text: String },
}

pub fn parse(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    let mut lines = text.lines().peekable();

    fn flush(blocks: &mut Vec<Block>, para: &mut Vec<&str>, items: &mut Vec<String>) {
        if !para.is_empty() {
            blocks.push(Block::Paragraph(inlines(&para.join(" "))));
            para.clear();
        }
        if !items.is_empty() {
            blocks.push(Block::List(items.iter().map(|i| inlines(i)).collect()));
            items.clear();
        }
    }

    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            flush(&mut blocks, &mut para, &mut items);
            let mut body = Vec::new();
            for l in lines.by_ref() {
                if l.trim_start().starts_with("```") {
                    break;
                }
                body.push(l);
            }
            blocks.push(Block::Code {
                lang: rest.trim().to_string(),
                text: body.join("\n"),
            });
        } else if trimmed.is_empty() {
            flush(&mut blocks, &mut para, &mut items);
        } else if let Some((level, rest)) = heading(trimmed) {
            flush(&mut blocks, &mut para, &mut items);
            blocks.push(Block::Heading(level, inlines(rest)));
        } else if let Some(rest) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            if !para.is_empty() {
                blocks.push(Block::Paragraph(inlines(&para.join(" "))));
                para.clear();
            }
            items.push(rest.trim().to_string());
        } else if !items.is_empty() && line.starts_with(' ') {
            // A wrapped list item.
            let last = items.last_mut().expect("non-empty");
            last.push(' ');
            last.push_str(trimmed);
        } else {
            if !items.is_empty() {
                flush(&mut blocks, &mut Vec::new(), &mut items);
            }
            para.push(trimmed);
        }
    }
    flush(&mut blocks, &mut para, &mut items);
    blocks
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let level = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&level) && line[level..].starts_with(' ') {
        Some((level as u8, line[level..].trim()))
    } else {
        None
    }
}

/// Inline `code` and **bold**; anything unmatched stays text.
pub fn inlines(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut buf = String::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`') {
            if let Some(end) = after.find('`') {
                if !buf.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut buf)));
                }
                out.push(Inline::Code(after[..end].to_string()));
                rest = &after[end + 1..];
                continue;
            }
        }
        if let Some(after) = rest.strip_prefix("**") {
            if let Some(end) = after.find("**") {
                if !buf.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut buf)));
                }
                out.push(Inline::Strong(after[..end].to_string()));
                rest = &after[end + 2..];
                continue;
            }
        }
        let ch = rest.chars().next().expect("non-empty");
        buf.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    if !buf.is_empty() {
        out.push(Inline::Text(buf));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_shapes() {
        let md = "# Title\n\nSome `code` and **bold**\ncontinued.\n\n## Signature\n\n```python\ndef f(x):\n    pass\n```\n\n- one\n- two `x`\n  wrapped\n";
        let b = parse(md);
        assert_eq!(b[0], Block::Heading(1, vec![Inline::Text("Title".into())]));
        assert_eq!(
            b[1],
            Block::Paragraph(vec![
                Inline::Text("Some ".into()),
                Inline::Code("code".into()),
                Inline::Text(" and ".into()),
                Inline::Strong("bold".into()),
                Inline::Text(" continued.".into()),
            ])
        );
        assert_eq!(
            b[3],
            Block::Code {
                lang: "python".into(),
                text: "def f(x):\n    pass".into()
            }
        );
        assert_eq!(
            b[4],
            Block::List(vec![
                vec![Inline::Text("one".into())],
                vec![
                    Inline::Text("two ".into()),
                    Inline::Code("x".into()),
                    Inline::Text(" wrapped".into())
                ],
            ])
        );
    }

    #[test]
    fn html_is_just_text() {
        let b = parse("<script>alert(1)</script> `<b>`");
        assert_eq!(
            b,
            vec![Block::Paragraph(vec![
                Inline::Text("<script>alert(1)</script> ".into()),
                Inline::Code("<b>".into())
            ])]
        );
    }

    #[test]
    fn unterminated_marks_stay_text() {
        assert_eq!(inlines("a `b"), vec![Inline::Text("a `b".into())]);
        assert_eq!(
            parse("```\nopen"),
            vec![Block::Code {
                lang: String::new(),
                text: "open".into()
            }]
        );
    }
}
