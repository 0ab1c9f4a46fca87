// A YAML input is one document (sim/config/yaml_document.h): a second document with content
// is refused at its `---`, markers without content after them are not, and the check never
// hangs (yaml-cpp's LoadAll looped forever on an input the CI fuzzer found; it is not used).
#include <catch2/catch.hpp>

#include "sim/config/yaml_document.h"

using stcsim::InputError;
using stcsim::load_yaml_document;
using stcsim::yaml_detail::second_document_line;

TEST_CASE("yaml_document_second_document_line", "[config][yaml]") {
  CHECK(second_document_line("a: 1\nb: 2\n") == 0);
  CHECK(second_document_line("---\na: 1\n") == 0);           // a leading marker opens the first
  CHECK(second_document_line("# c\n--- # c\na: 1\n") == 0);  // comments are not content
  CHECK(second_document_line("a: 1\n---\n") == 0);           // an empty second document
  CHECK(second_document_line("a: 1\n...\n# end\n") == 0);    // a document end, nothing after
  CHECK(second_document_line("a: 1\n---\nb: 2\n") == 2);     // at its marker
  CHECK(second_document_line("a: 1\n\n--- {b: 2}\n") == 3);  // content on the marker's line
  CHECK(second_document_line("a: 1\r\n---\r\nb: 2\r\n") == 2);
  CHECK(second_document_line("a: 1\n...\n---\nb: 2\n") == 2);
  CHECK(second_document_line("a: 1\n----\nb: 2\n") == 0);     // not a marker
  CHECK(second_document_line("a: |\n  ---\n  text\n") == 0);  // indented: scalar text
}

TEST_CASE("yaml_document_refuses_without_hanging", "[config][yaml]") {
  CHECK_THROWS_WITH(load_yaml_document("a: 1\n---\nb: 2\n", "f.yaml"),
                    Catch::Contains("f.yaml:2") && Catch::Contains("second YAML document"));
  // The fuzzer's input (fuzz_config, 2026-11-27): LoadAll never returned on it.
  const std::string fuzz =
      ",chebandersion: 1\nbase: a1n:0a0\nme smals: 16\ngpu:\n  nu\xed_sms: 8\n";
  try {
    load_yaml_document(fuzz, "fuzz.yaml");
  } catch (const InputError&) {
  }
  CHECK(load_yaml_document("a: 1\n", "ok.yaml")["a"].as<int>() == 1);
}
