//! Tests of lower modules' decisions that run the whole extraction (the pipeline sits above those
//! modules, so their own test modules cannot call it without an import cycle).

mod conftest;
mod resolve;
mod unittest;
