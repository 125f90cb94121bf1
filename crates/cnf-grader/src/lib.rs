//! cnf-grader
