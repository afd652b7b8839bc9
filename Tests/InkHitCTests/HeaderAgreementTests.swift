import CInkHit
import Foundation
import InkHitC
import Testing

/// Compiles only when `c` (a function as inkhit.h declares it, imported by Clang) and `swift` (its `@_cdecl`
/// implementation in InkHitC) have the same type: every parameter and the result, in order.
func same<F>(_ c: F, _ swift: F) {}

/// The header is the contract: every function it declares is implemented with exactly its signature, and
/// the C test program (examples/c/inkhit_test.c) calls every one of them.
struct HeaderAgreementTests {
    /// Checked by the compiler: an implementation whose parameter or result type differs from the header's
    /// (`Int32` for `size_t`, `Int` for `int64_t`, a missing argument) fails to build this file. The five
    /// functions written in C (version, status names, the last error, the handle count) are checked by the C
    /// compiler instead: Sources/CInkHit/inkhit.c includes the header.
    @Test func everySwiftImplementationHasTheHeadersSignature() {
        same(CInkHit.inkhit_font_from_path, InkHitC.inkhit_font_from_path)
        same(CInkHit.inkhit_font_from_bytes, InkHitC.inkhit_font_from_bytes)
        same(CInkHit.inkhit_font_get_info, InkHitC.inkhit_font_get_info)
        same(CInkHit.inkhit_font_glyph, InkHitC.inkhit_font_glyph)
        same(CInkHit.inkhit_font_advance, InkHitC.inkhit_font_advance)
        same(CInkHit.inkhit_font_release, InkHitC.inkhit_font_release)
        same(CInkHit.inkhit_shape_cache_create, InkHitC.inkhit_shape_cache_create)
        same(CInkHit.inkhit_shape_cache_get_info, InkHitC.inkhit_shape_cache_get_info)
        same(CInkHit.inkhit_shape_cache_clear, InkHitC.inkhit_shape_cache_clear)
        same(CInkHit.inkhit_shape_cache_release, InkHitC.inkhit_shape_cache_release)
        same(CInkHit.inkhit_builder_create, InkHitC.inkhit_builder_create)
        same(CInkHit.inkhit_builder_add_glyph, InkHitC.inkhit_builder_add_glyph)
        same(CInkHit.inkhit_builder_add_glyphs, InkHitC.inkhit_builder_add_glyphs)
        same(CInkHit.inkhit_builder_add_outline, InkHitC.inkhit_builder_add_outline)
        same(CInkHit.inkhit_builder_set_prepared_radius, InkHitC.inkhit_builder_set_prepared_radius)
        same(CInkHit.inkhit_builder_set_shape_forms, InkHitC.inkhit_builder_set_shape_forms)
        same(CInkHit.inkhit_builder_count, InkHitC.inkhit_builder_count)
        same(CInkHit.inkhit_builder_build, InkHitC.inkhit_builder_build)
        same(CInkHit.inkhit_builder_release, InkHitC.inkhit_builder_release)
        same(CInkHit.inkhit_index_hit, InkHitC.inkhit_index_hit)
        same(CInkHit.inkhit_index_hits, InkHitC.inkhit_index_hits)
        same(CInkHit.inkhit_index_contains, InkHitC.inkhit_index_contains)
        same(CInkHit.inkhit_index_topmost, InkHitC.inkhit_index_topmost)
        same(CInkHit.inkhit_index_get_info, InkHitC.inkhit_index_get_info)
        same(CInkHit.inkhit_index_release, InkHitC.inkhit_index_release)
        same(CInkHit.inkhit_layout_options_init, InkHitC.inkhit_layout_options_init)
        same(CInkHit.inkhit_layout_options_init_sized, InkHitC.inkhit_layout_options_init_sized)
        same(CInkHit.inkhit_layout_decoration_count, InkHitC.inkhit_layout_decoration_count)
        same(CInkHit.inkhit_layout_decorations, InkHitC.inkhit_layout_decorations)
        same(CInkHit.inkhit_layout_hit_decoration, InkHitC.inkhit_layout_hit_decoration)
        same(CInkHit.inkhit_layout_create_utf8, InkHitC.inkhit_layout_create_utf8)
        same(CInkHit.inkhit_layout_create_utf16, InkHitC.inkhit_layout_create_utf16)
        same(CInkHit.inkhit_layout_get_info, InkHitC.inkhit_layout_get_info)
        same(CInkHit.inkhit_layout_glyphs, InkHitC.inkhit_layout_glyphs)
        same(CInkHit.inkhit_layout_lines, InkHitC.inkhit_layout_lines)
        same(CInkHit.inkhit_layout_hit, InkHitC.inkhit_layout_hit)
        same(CInkHit.inkhit_layout_link_hit, InkHitC.inkhit_layout_link_hit)
        same(CInkHit.inkhit_layout_caret, InkHitC.inkhit_layout_caret)
        same(CInkHit.inkhit_layout_caret_rect, InkHitC.inkhit_layout_caret_rect)
        same(CInkHit.inkhit_layout_release, InkHitC.inkhit_layout_release)
        same(CInkHit.inkhit_node_init, InkHitC.inkhit_node_init)
        same(CInkHit.inkhit_scene_create, InkHitC.inkhit_scene_create)
        same(CInkHit.inkhit_scene_add, InkHitC.inkhit_scene_add)
        same(CInkHit.inkhit_scene_update, InkHitC.inkhit_scene_update)
        same(CInkHit.inkhit_node_shape_init, InkHitC.inkhit_node_shape_init)
        same(CInkHit.inkhit_scene_add_shaped, InkHitC.inkhit_scene_add_shaped)
        same(CInkHit.inkhit_scene_update_shaped, InkHitC.inkhit_scene_update_shaped)
        same(CInkHit.inkhit_scene_set_transform, InkHitC.inkhit_scene_set_transform)
        same(CInkHit.inkhit_scene_remove, InkHitC.inkhit_scene_remove)
        same(CInkHit.inkhit_scene_path, InkHitC.inkhit_scene_path)
        same(CInkHit.inkhit_scene_count, InkHitC.inkhit_scene_count)
        same(CInkHit.inkhit_scene_snapshot, InkHitC.inkhit_scene_snapshot)
        same(CInkHit.inkhit_scene_release, InkHitC.inkhit_scene_release)
        same(CInkHit.inkhit_snapshot_hit, InkHitC.inkhit_snapshot_hit)
        same(CInkHit.inkhit_snapshot_hits, InkHitC.inkhit_snapshot_hits)
        same(CInkHit.inkhit_snapshot_release, InkHitC.inkhit_snapshot_release)
        // What the renderer drew (1.1).
        same(CInkHit.inkhit_font_from_borrowed_bytes, InkHitC.inkhit_font_from_borrowed_bytes)
        same(CInkHit.inkhit_font_with_variations, InkHitC.inkhit_font_with_variations)
        same(CInkHit.inkhit_font_get_variations, InkHitC.inkhit_font_get_variations)
        same(CInkHit.inkhit_glyph_style_init, InkHitC.inkhit_glyph_style_init)
        same(CInkHit.inkhit_glyph_run_init, InkHitC.inkhit_glyph_run_init)
        same(CInkHit.inkhit_builder_add_run, InkHitC.inkhit_builder_add_run)
        same(CInkHit.inkhit_builder_add_shaped, InkHitC.inkhit_builder_add_shaped)
        same(CInkHit.inkhit_builder_set_tag, InkHitC.inkhit_builder_set_tag)
        same(CInkHit.inkhit_index_placement_tag, InkHitC.inkhit_index_placement_tag)
        same(CInkHit.inkhit_index_placement_ink, InkHitC.inkhit_index_placement_ink)
        // Jobs (1.1).
        same(CInkHit.inkhit_job_runner_create, InkHitC.inkhit_job_runner_create)
        same(CInkHit.inkhit_job_runner_run, InkHitC.inkhit_job_runner_run)
        same(CInkHit.inkhit_job_runner_release, InkHitC.inkhit_job_runner_release)
        same(CInkHit.inkhit_limits_get, InkHitC.inkhit_limits_get)
        same(CInkHit.inkhit_limits_set, InkHitC.inkhit_limits_set)
        // Renderer rules (1.2).
        same(CInkHit.inkhit_builder_add_path, InkHitC.inkhit_builder_add_path)
        same(CInkHit.inkhit_glyph_style_init_sized, InkHitC.inkhit_glyph_style_init_sized)
        same(CInkHit.inkhit_skia_fake_bold_width, InkHitC.inkhit_skia_fake_bold_width)
        same(CInkHit.inkhit_skia_font_init_sized, InkHitC.inkhit_skia_font_init_sized)
        same(CInkHit.inkhit_glyph_style_for_skia, InkHitC.inkhit_glyph_style_for_skia)
        // Qt's raster engine (1.3).
        same(CInkHit.inkhit_qt_raw_font_init_sized, InkHitC.inkhit_qt_raw_font_init_sized)
        same(CInkHit.inkhit_qt_hinting, InkHitC.inkhit_qt_hinting)
        same(CInkHit.inkhit_qt_glyph_style, InkHitC.inkhit_qt_glyph_style)
        same(CInkHit.inkhit_builder_add_qt_glyph_run, InkHitC.inkhit_builder_add_qt_glyph_run)
        // 1.2: statuses that mean one thing, numbered adds, named instances, runner options.
        same(CInkHit.inkhit_index_hit_batch, InkHitC.inkhit_index_hit_batch)
        same(CInkHit.inkhit_snapshot_hit_batch, InkHitC.inkhit_snapshot_hit_batch)
        same(CInkHit.inkhit_builder_add_glyphs_numbered, InkHitC.inkhit_builder_add_glyphs_numbered)
        same(CInkHit.inkhit_builder_add_run_numbered, InkHitC.inkhit_builder_add_run_numbered)
        same(CInkHit.inkhit_builder_add_shaped_numbered, InkHitC.inkhit_builder_add_shaped_numbered)
        same(CInkHit.inkhit_font_instance_count, InkHitC.inkhit_font_instance_count)
        same(CInkHit.inkhit_font_instance_name, InkHitC.inkhit_font_instance_name)
        same(CInkHit.inkhit_font_find_instance, InkHitC.inkhit_font_find_instance)
        same(CInkHit.inkhit_font_with_instance, InkHitC.inkhit_font_with_instance)
        same(CInkHit.inkhit_job_runner_options_init, InkHitC.inkhit_job_runner_options_init)
        same(CInkHit.inkhit_job_runner_create_with_options, InkHitC.inkhit_job_runner_create_with_options)
        // 1.3: the builder's transform check.
        same(CInkHit.inkhit_transform_validate, InkHitC.inkhit_transform_validate)
    }

    /// The list above is complete: it names every function of the header that the C file does not define.
    @Test func theSignatureListNamesEveryFunction() throws {
        let declared = try Header.functions()
        let inC = Set(["inkhit_version", "inkhit_version_string", "inkhit_last_error", "inkhit_status_name",
                       "inkhit_handle_count", "inkhit_report_error"])
        let source = try String(contentsOfFile: Header.repository + "/Tests/InkHitCTests/HeaderAgreementTests.swift",
                                encoding: .utf8)
        #expect(declared.count >= 64)
        for name in declared where !inC.contains(name) {
            #expect(source.contains("same(CInkHit.\(name), InkHitC.\(name))"), "\(name) has no signature check")
        }
        let cSource = try String(contentsOfFile: Header.repository + "/Sources/CInkHit/inkhit.c", encoding: .utf8)
        for name in inC {
            #expect(declared.contains(name))
            #expect(cSource.contains("\(name)("), "\(name) is not defined in inkhit.c")
        }
    }

    /// "The C program exercises every function": each is called in examples/c/inkhit_test.c.
    @Test func theCTestProgramCallsEveryFunction() throws {
        let program = try String(contentsOfFile: Header.repository + "/examples/c/inkhit_test.c", encoding: .utf8)
        for name in try Header.functions() {
            #expect(program.contains(name + "("), "examples/c/inkhit_test.c never calls \(name)")
        }
    }

    /// Each function's comment in the header states who owns what ("Owns:"), which threads may call it
    /// ("Threads:") and what it returns on failure ("Errors:").
    @Test func everyFunctionStatesOwnershipThreadsAndErrors() throws {
        let comments = try Header.comments()
        #expect(comments.count == (try Header.functions()).count)
        for (name, comment) in comments {
            for tag in ["Owns:", "Threads:", "Errors:"] {
                #expect(comment.contains(tag), "the comment of \(name) does not say \(tag)")
            }
        }
    }

    /// The status codes the Swift side returns are the header's, and each has its name.
    @Test func statusNames() {
        let codes: [(Int, String)] = [
            (INKHIT_OK, "INKHIT_OK"), (INKHIT_ERROR_NULL_ARGUMENT, "INKHIT_ERROR_NULL_ARGUMENT"),
            (INKHIT_ERROR_INVALID_HANDLE, "INKHIT_ERROR_INVALID_HANDLE"),
            (INKHIT_ERROR_INVALID_ARGUMENT, "INKHIT_ERROR_INVALID_ARGUMENT"),
            (INKHIT_ERROR_INVALID_TEXT, "INKHIT_ERROR_INVALID_TEXT"), (INKHIT_ERROR_FILE, "INKHIT_ERROR_FILE"),
            (INKHIT_ERROR_FONT, "INKHIT_ERROR_FONT"), (INKHIT_ERROR_GLYPH, "INKHIT_ERROR_GLYPH"),
            (INKHIT_ERROR_SHAPE, "INKHIT_ERROR_SHAPE"), (INKHIT_ERROR_PLACEMENT, "INKHIT_ERROR_PLACEMENT"),
            (INKHIT_ERROR_LAYOUT, "INKHIT_ERROR_LAYOUT"), (INKHIT_ERROR_SCENE, "INKHIT_ERROR_SCENE"),
            (INKHIT_ERROR_LIMIT, "INKHIT_ERROR_LIMIT"),
        ]
        for (i, (code, name)) in codes.enumerated() {
            #expect(code == i)
            #expect(String(cString: inkhit_status_name(inkhit_status(code))) == name)
        }
        #expect(String(cString: inkhit_status_name(inkhit_status(codes.count))) == "INKHIT_UNKNOWN_STATUS")
        #expect(inkhit_version() == UInt32(INKHIT_VERSION_MAJOR * 10000 + INKHIT_VERSION_MINOR * 100 + INKHIT_VERSION_PATCH))
    }
}

/// The repository's inkhit.h, read as text.
enum Header {
    static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)                     // Tests/InkHitCTests/<file>
        return parts.joined(separator: "/")
    }()

    /// Each declared function with the `/** … */` comment just above it.
    static func comments() throws -> [(String, String)] {
        let lines = try String(contentsOfFile: repository + "/Sources/CInkHit/include/inkhit.h", encoding: .utf8)
            .components(separatedBy: "\n")
        var result: [(String, String)] = []
        for (i, line) in lines.enumerated() {
            guard let name = declaredFunction(line) else { continue }
            var j = i - 1
            var block: [String] = []
            while j >= 0, lines[j].hasSuffix("*/") || !block.isEmpty {
                block.insert(lines[j], at: 0)
                if lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("/**") { break }
                j -= 1
            }
            result.append((name, block.joined(separator: "\n")))
        }
        return result
    }

    /// The function a declaration line declares, if it is one.
    static func declaredFunction<S: StringProtocol>(_ line: S) -> String? {
        guard line.first.map({ $0.isLetter }) == true, !line.hasPrefix("typedef"), let open = line.firstIndex(of: "(") else {
            return nil
        }
        let head = line[..<open]
        guard let start = head.range(of: "inkhit_", options: .backwards) else { return nil }
        return String(head[start.lowerBound...])
    }

    /// The functions the header declares: lines starting with a return type, then `inkhit_…(`.
    static func functions() throws -> [String] {
        let text = try String(contentsOfFile: repository + "/Sources/CInkHit/include/inkhit.h", encoding: .utf8)
        return text.split(separator: "\n").compactMap { declaredFunction($0) }
    }
}
