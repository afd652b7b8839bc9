/* labels.c — GTK 4 labels recorded into an InkHit index, in the window's device pixels at any scale, with the
 * rules of the renderer GTK draws them with (GTK's GL renderer or its cairo one), and a click answered by ink.
 *
 *   cc labels.c $(pkg-config --cflags --libs gtk4 inkhit-pango) -o labels && ./labels
 *
 * Prints, for each label, how many placements it got, then what the bar of its first "T" hits (placement 0,
 * byte 0) and a point beside the text (a miss); a click prints the character under it (or "miss"). Run with GSK_RENDERER=cairo or gl and GDK_SCALE=1 or 2.
 * With --once it prints and quits after the first frame (scripts/c-abi-test.sh runs it so under Xvfb). */
#include <gtk/gtk.h>
#include <inkhit.h>
#include <inkhit_pango.h>
#include <stdio.h>
#include <string.h>

static GtkWidget *labels[3];
static inkhit_index index_ = NULL;
static gboolean once = FALSE;

/* The label's layout px -> the surface's device px: scale x (the native's surface transform + the label's
 * place in its native + the layout's offsets in the label). */
static inkhit_transform layout_to_device(GtkWidget *label) {
    GtkNative *native = gtk_widget_get_native(label);
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(native, &sx, &sy);
    graphene_point_t p = GRAPHENE_POINT_INIT(0, 0), q;
    if (!gtk_widget_compute_point(label, GTK_WIDGET(native), &p, &q)) q = p;
    int lx = 0, ly = 0;
    gtk_label_get_layout_offsets(GTK_LABEL(label), &lx, &ly);
    double s = gtk_widget_get_scale_factor(label);
    return (inkhit_transform){s, 0, 0, s, s * (sx + q.x + lx), s * (sy + q.y + ly)};
}

/* The renderer's rules: GTK's cairo renderer draws as pango_cairo_show_layout on an image surface; its GL
 * renderer (the default where OpenGL works) has its own. */
static uint32_t renderer_flags(GtkWidget *widget) {
    GskRenderer *renderer = gtk_native_get_renderer(gtk_widget_get_native(widget));
    return strcmp(G_OBJECT_TYPE_NAME(renderer), "GskCairoRenderer") == 0 ? INKHIT_PANGO_SNAP_ORIGINS : INKHIT_PANGO_GSK_GL;
}

static void record(void) {
    inkhit_builder builder;
    if (inkhit_builder_create(0, &builder) != INKHIT_OK) return;
    for (int i = 0; i < 3; i++) {
        inkhit_transform t = layout_to_device(labels[i]);
        size_t added = 0;
        if (inkhit_pango_add_layout(builder, NULL, gtk_label_get_layout(GTK_LABEL(labels[i])), 0, 0, &t,
                                    renderer_flags(labels[i]), &added) != INKHIT_OK)
            fprintf(stderr, "labels: %s\n", inkhit_last_error());
        printf("label %d: %zu placements (%s, scale %d)\n", i, added, G_OBJECT_TYPE_NAME(gtk_native_get_renderer(
               gtk_widget_get_native(labels[i]))), gtk_widget_get_scale_factor(labels[i]));
    }
    if (index_) inkhit_index_release(index_);
    index_ = NULL;
    inkhit_builder_build(builder, &index_);
    inkhit_builder_release(builder);
}

/* (x, y) in `widget`'s coordinates -> the surface's device px, where the index answers. */
static void answer(GtkWidget *widget, double x, double y) {
    GtkNative *native = gtk_widget_get_native(widget);
    double sx = 0, sy = 0, s = gtk_widget_get_scale_factor(widget);
    gtk_native_get_surface_transform(native, &sx, &sy);
    graphene_point_t p = GRAPHENE_POINT_INIT((float)x, (float)y), q;
    if (!gtk_widget_compute_point(widget, GTK_WIDGET(native), &p, &q)) return;
    inkhit_hit hit;
    uint64_t byte = 0;
    if (inkhit_index_hit(index_, s * (sx + q.x), s * (sy + q.y), 0, &hit) != INKHIT_OK) return;
    if (!hit.hit) {
        printf("(%.1f, %.1f): miss\n", x, y);
        return;
    }
    inkhit_index_placement_tag(index_, hit.placement, &byte);
    printf("(%.1f, %.1f): placement %lld, byte %llu\n", x, y, (long long)hit.placement, (unsigned long long)byte);
}

static void clicked(GtkGestureClick *gesture, int n, double x, double y, gpointer data) {
    (void)n; (void)data;
    answer(gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(gesture)), x, y);
}

static gboolean first_frame(gpointer window) {
    record();
    /* The bar of the first label's "T" (DejaVu Sans's bar spans 10.2 to 11.7 px above the baseline at 16 px), in the
     * middle of its logical box. */
    PangoLayout *layout = gtk_label_get_layout(GTK_LABEL(labels[0]));
    PangoRectangle t;
    pango_layout_index_to_pos(layout, 0, &t);
    int lx = 0, ly = 0;
    gtk_label_get_layout_offsets(GTK_LABEL(labels[0]), &lx, &ly);
    answer(labels[0], lx + (t.x + t.width / 2.0) / PANGO_SCALE, ly + pango_layout_get_baseline(layout) / (double)PANGO_SCALE - 10.9);
    answer(labels[0], lx - 3.0, ly - 3.0);               /* above and left of the text: a miss */
    if (once) gtk_window_destroy(GTK_WINDOW(window));
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    const char *markup[3] = {"<span font=\"DejaVu Sans 16px\">Tap <u>the link</u> here</span>",
                             "<span font=\"Cantarell 20px\">Wave <b>office</b></span>",
                             "<span font=\"Droid Sans Fallback 24px\">永字八法</span>"};
    for (int i = 0; i < 3; i++) {
        labels[i] = gtk_label_new(NULL);
        gtk_label_set_markup(GTK_LABEL(labels[i]), markup[i]);
        gtk_box_append(GTK_BOX(box), labels[i]);
        GtkGesture *click = gtk_gesture_click_new();
        g_signal_connect(click, "pressed", G_CALLBACK(clicked), NULL);
        gtk_widget_add_controller(labels[i], GTK_EVENT_CONTROLLER(click));
    }
    gtk_window_set_child(GTK_WINDOW(window), box);
    gtk_window_present(GTK_WINDOW(window));
    g_timeout_add(800, first_frame, window);            /* after GTK has laid out and drawn the labels */
}

int main(int argc, char **argv) {
    once = argc > 1 && strcmp(argv[1], "--once") == 0;
    GtkApplication *app = gtk_application_new(NULL, G_APPLICATION_DEFAULT_FLAGS);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 1, argv);
    g_object_unref(app);
    if (index_) inkhit_index_release(index_);
    return status;
}
