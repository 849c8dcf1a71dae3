DROP TABLE files; DROP TABLE attachments;
